import {
  ActionGroup,
  actionGroupOf,
  byActionableOrder,
  RECENT_LAPSE_DAYS,
} from '../../src/lib/actionable-order';

describe('actionable order of expiring and lapsed items', () => {
  it('puts what can still be booked first, then recent lapses, then lapses older than 90 days', () => {
    const daysLeft = [-2401, 12, -1, 0, -91, -90, 3, -30];
    expect([...daysLeft].sort(byActionableOrder)).toEqual([0, 3, 12, -1, -30, -90, -91, -2401]);
  });

  it('draws the line between a recent and an older lapse at exactly 90 days', () => {
    expect(RECENT_LAPSE_DAYS).toBe(90);
    expect(actionGroupOf(0)).toBe(ActionGroup.expiring);
    expect(actionGroupOf(-1)).toBe(ActionGroup.recentLapse);
    expect(actionGroupOf(-90)).toBe(ActionGroup.recentLapse);
    expect(actionGroupOf(-91)).toBe(ActionGroup.olderLapse);
  });

  it('keeps items with the same days left in the order they were listed', () => {
    const items = [
      { name: 'first', daysLeft: 5 },
      { name: 'second', daysLeft: -200 },
      { name: 'third', daysLeft: 5 },
      { name: 'fourth', daysLeft: -200 },
    ];
    const sorted = [...items].sort((a, b) => byActionableOrder(a.daysLeft, b.daysLeft));
    expect(sorted.map((item) => item.name)).toEqual(['first', 'third', 'second', 'fourth']);
  });
});
