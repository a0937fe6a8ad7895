/** `value`, or the error of `error()` when it is null (a fold that found no such resource). */
export const required = <T>(value: T | null, error: () => Error): T => {
  if (value === null) throw error();
  return value;
};
