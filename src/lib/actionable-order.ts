/**
 * The order in which expiring and lapsed items are shown, on a tab and in the digest: what can still
 * be acted on first. Items still valid (expiring) come first, soonest first: they can be booked
 * before they lapse. Then lapses of the last RECENT_LAPSE_DAYS days, the most recent first. Older
 * lapses come last, most recent first: a lapse from years ago is most likely someone who left, and
 * listing it first teaches people to skip the list.
 */

/** A lapse at most this many days old is still recent: it is listed with what to act on. */
export const RECENT_LAPSE_DAYS = 90;

export const ActionGroup = {
  /** Expires today or later. */
  expiring: 0,
  /** Lapsed within the last RECENT_LAPSE_DAYS days. */
  recentLapse: 1,
  /** Lapsed more than RECENT_LAPSE_DAYS days ago. */
  olderLapse: 2,
} as const;
export type ActionGroup = (typeof ActionGroup)[keyof typeof ActionGroup];

/** The heading above the older lapses, where a list shows them. */
export const OLDER_LAPSES_HEADING = `Lapsed more than ${RECENT_LAPSE_DAYS} days ago: still employed?`;

/** The group of an item whose date is `daysLeft` days away (negative: lapsed that many days ago). */
export function actionGroupOf(daysLeft: number): ActionGroup {
  if (daysLeft >= 0) return ActionGroup.expiring;
  return daysLeft >= -RECENT_LAPSE_DAYS ? ActionGroup.recentLapse : ActionGroup.olderLapse;
}

/**
 * Compares two items by their days left, for Array.prototype.sort (stable: a tie keeps the list's
 * order): the groups in order, expiring items soonest first, lapses most recent first.
 */
export function byActionableOrder(a: number, b: number): number {
  const groups = actionGroupOf(a) - actionGroupOf(b);
  if (groups !== 0) return groups;
  return actionGroupOf(a) === ActionGroup.expiring ? a - b : b - a;
}
