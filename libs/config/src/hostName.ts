const NAME = /^[a-z0-9._-]+$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * The host part of a `host[:port]` value, lower-cased, without the port or a trailing dot, IPv6
 * addresses in brackets (`::1` and `[::1]:8081` both give `[::1]`); null when it is not a host
 * name or address. Host headers and ADMIN_ALLOWED_HOSTS entries are compared in this form.
 */
export const hostName = (value: string): string | null => {
  let text = value.trim().toLowerCase();
  let name: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return null;
    name = text.slice(0, end + 1);
    text = text.slice(end + 1);
    if (text !== '' && !/^:\d{1,5}$/.test(text)) return null;
    return IPV6.test(name) ? name : null;
  }
  if ((text.match(/:/g) ?? []).length > 1) return IPV6.test(`[${text}]`) ? `[${text}]` : null;
  const [host = '', port] = text.split(':');
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return null;
  name = host.endsWith('.') ? host.slice(0, -1) : host;
  return NAME.test(name) ? name : null;
};
