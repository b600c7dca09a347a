/** Polls `read` until `check` holds (the test's own timeout bounds the wait); returns the last value. */
export async function waitFor<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
