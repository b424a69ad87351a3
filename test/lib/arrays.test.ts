import { appendAll, prependAll } from '../../src/lib/arrays';

test('appends and prepends far more items than a spread call could pass', () => {
  const many = Array.from({ length: 300_000 }, (_, index) => index);
  const target = [-2, -1];
  appendAll(target, many);
  expect(target).toHaveLength(300_002);
  expect(target.slice(0, 3)).toEqual([-2, -1, 0]);
  prependAll(target, ['a', 'b'] as unknown as number[]);
  expect(target.slice(0, 4)).toEqual(['a', 'b', -2, -1]);
  expect(target[target.length - 1]).toBe(299_999);
});
