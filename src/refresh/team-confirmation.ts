/**
 * The manager addresses the schedule's owner confirmed: recipients like any other (schedule-owner.ts
 * has the rule), so any editor may type a Manager e-mail on the People tab, and only an address the
 * owner confirmed receives a team digest or an escalation. Moving people between confirmed managers
 * needs no one's confirmation: the editors keep the People tab.
 *
 * Kept in the owner's user properties, which only the owner writes and their trigger reads, for the
 * schedule (trigger id) they confirmed them for: a new owner starts with none. A property value
 * holds 9 KB (developers.google.com/apps-script/guides/services/quotas), so at most
 * MAX_CONFIRMED_CHARS of addresses are kept: beyond it, an address is not confirmed and Settings
 * keeps showing it as waiting.
 */
import type { RefreshSchedule } from './schedule-store';

const CONFIRMED_MANAGERS_KEY_PREFIX = 'safetySync.confirmedManagers.';
const MAX_CONFIRMED_CHARS = 8_500;

interface ConfirmedManagers {
  triggerUid: string;
  addresses: string[];
}

function keyOf(spreadsheetId: string): string {
  return CONFIRMED_MANAGERS_KEY_PREFIX + spreadsheetId;
}

/** The addresses the calling user confirmed for this schedule (none for another schedule). */
export function readConfirmedManagers(
  spreadsheetId: string,
  schedule: Pick<RefreshSchedule, 'triggerUid'> | null,
): Set<string> {
  if (!schedule) return new Set();
  const saved = PropertiesService.getUserProperties().getProperty(keyOf(spreadsheetId));
  if (!saved) return new Set();
  const confirmed = JSON.parse(saved) as ConfirmedManagers;
  return new Set(confirmed.triggerUid === schedule.triggerUid ? confirmed.addresses : []);
}

/**
 * Confirms these addresses beside those confirmed before that People still names (an address no
 * longer on People is forgotten: typed again, it waits for the owner again). Returns the addresses
 * confirmed now.
 */
export function confirmManagers(
  spreadsheetId: string,
  schedule: Pick<RefreshSchedule, 'triggerUid'>,
  onPeople: readonly string[],
  addresses: readonly string[],
): string[] {
  const before = readConfirmedManagers(spreadsheetId, schedule);
  const named = new Set(onPeople);
  const kept = [...before].filter((address) => named.has(address));
  const added = addresses
    .map((address) => address.trim().toLowerCase())
    .filter((address) => named.has(address) && !before.has(address));
  const confirmed: string[] = [];
  let chars = 0;
  for (const address of [...kept, ...new Set(added)]) {
    chars += address.length + 3;
    if (chars > MAX_CONFIRMED_CHARS) break;
    confirmed.push(address);
  }
  const record: ConfirmedManagers = { triggerUid: schedule.triggerUid, addresses: confirmed };
  PropertiesService.getUserProperties().setProperty(keyOf(spreadsheetId), JSON.stringify(record));
  return confirmed.filter((address) => !before.has(address));
}
