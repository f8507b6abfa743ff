/**
 * `work`, or a rejection with `onTimeout()` once `ms` have passed (the timer never outlives the
 * work; the work itself is not cancelled). A non-Error rejection is wrapped so callers always get one.
 */
export function withTimeLimit<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(onTimeout());
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
