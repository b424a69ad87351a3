/**
 * Adding many items to an array. `push(...items)` passes every item as an argument, and V8 throws
 * "Maximum call stack size exceeded" somewhere past 100,000 of them: a large import would fail.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

export function prependAll<T>(target: T[], items: readonly T[]): void {
  const existing = target.splice(0, target.length);
  appendAll(target, items);
  appendAll(target, existing);
}
