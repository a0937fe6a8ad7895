/**
 * Echoed input is cut here: the longest identifier the service accepts (a dataId, 128
 * characters) is shown whole, anything longer is cut with an ellipsis (docs/security.md).
 */
export const MAX_ECHO_CHARS = 128;

/** No error message is longer than this, whatever it quotes (a backstop for messages built elsewhere). */
export const MAX_MESSAGE_CHARS = 1024;

const cut = (value: string, maxChars: number): string => {
  if (value.length <= maxChars) return value;
  let end = maxChars;
  // Never split a surrogate pair.
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${value.slice(0, end)}…`;
};

/** A piece of user input (path, slug, id, method, key name) as it may appear in a message. */
export const echoInput = (value: string, maxChars: number = MAX_ECHO_CHARS): string => cut(value, maxChars);

/** A whole message, bounded. */
export const clipMessage = (message: string): string => cut(message, MAX_MESSAGE_CHARS);
