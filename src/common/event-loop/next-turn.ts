/**
 * Resolves on the event loop's next turn (`setImmediate`), after the I/O callbacks already waiting: a long
 * computation on the main thread awaits it between slices, so requests, answers and database results are not
 * held up for the whole of it.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
