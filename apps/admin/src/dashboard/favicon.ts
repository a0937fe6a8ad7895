/** The dashboard's icon: without one the browser asks for /favicon.ico and logs a 404 on every page. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#10243e"/><path d="M8 22V10h7a4 4 0 0 1 0 8h-7" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><circle cx="23" cy="22" r="3" fill="#ffbf47"/></svg>';
