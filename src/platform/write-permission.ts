/**
 * Refuses a run, before it writes anything, that its user could not finish: a protection over one
 * of the add-on's tabs that the user may not edit, or a spreadsheet the user may only view. On
 * Google the first write into such a range throws ("You are trying to edit a protected cell or
 * object…"), which would leave the tabs written before it changed and the others not.
 *
 * Google's Protection reference: a warning-only protection lets everyone edit (the add-on's own,
 * table-guard.ts, are all warning-only); otherwise canEdit() says whether the user is one of its
 * editors ("The owner of the spreadsheet is always able to edit"). A viewer may edit nothing: the
 * reference does not say what canEdit() answers them on a warning-only protection; taken here (and in
 * the emulator) to be false, which is how a viewer is told apart.
 * The add-on's tabs are those carrying its imported-columns protection, plus those the caller names
 * (linked tabs the guard does not cover). Cheap: one getProtections call per type, one canEdit per
 * protection, and more only when one refuses.
 */
import { IMPORTED_COLUMNS_PROTECTION } from '../sheets/table-guard';
import { WriteRefusedError } from './user-facing-error';

type Protection = GoogleAppsScript.Spreadsheet.Protection;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** `tabs`: tabs the run writes besides those the add-on's protection marks (null: not there yet). */
export function requireWritableTabs(spreadsheet: Spreadsheet, tabs: readonly (Sheet | null)[] = []): void {
  const protections = [
    ...spreadsheet.getProtections(SpreadsheetApp.ProtectionType.RANGE),
    ...spreadsheet.getProtections(SpreadsheetApp.ProtectionType.SHEET),
  ];
  const refusing = protections.filter((protection) => !protection.canEdit());
  if (refusing.length === 0) return;
  if (refusing.some((protection) => protection.isWarningOnly())) {
    throw new WriteRefusedError(VIEW_ONLY);
  }
  const written = new Set(tabs.flatMap((tab) => (tab ? [tab.getSheetId()] : [])));
  for (const protection of protections) {
    if (protection.getDescription() === IMPORTED_COLUMNS_PROTECTION)
      written.add(protection.getRange().getSheet().getSheetId());
  }
  const blocking = refusing.find((protection) => written.has(protection.getRange().getSheet().getSheetId()));
  if (blocking) throw new WriteRefusedError(refusalOf(blocking));
}

/** Google's refusal of an edit its user may not make, for a protection or a viewer's role alike. */
const GOOGLE_PROTECTED_EDIT = 'You are trying to edit a protected cell or object';
const VIEW_ONLY =
  'Safety Sync changed nothing: you can only view this spreadsheet. Ask its owner to make you an editor.';

/**
 * An edit Google refused after requireWritableTabs let the run go (the user removed the add-on's own
 * protections, by which a viewer is told apart, or a protection covers a cell outside the tabs it
 * checks), said as the cause: the protection that leaves the user out, or, when none does, a viewer's
 * role (only those two refuse an edit). Any other error is given back as it is.
 */
export function explainRefusedEdit(spreadsheet: Spreadsheet, error: unknown): unknown {
  if (!(error instanceof Error) || !error.message.startsWith(GOOGLE_PROTECTED_EDIT)) return error;
  const refusing = [
    ...spreadsheet.getProtections(SpreadsheetApp.ProtectionType.RANGE),
    ...spreadsheet.getProtections(SpreadsheetApp.ProtectionType.SHEET),
  ].find((protection) => !protection.canEdit() && !protection.isWarningOnly());
  if (!refusing) return new WriteRefusedError(VIEW_ONLY);
  return new WriteRefusedError(
    `${refusalOf(refusing).replace('Safety Sync changed nothing: ', 'Safety Sync stopped: ')} ` +
      'What it wrote before the refusal stays; the next run after the fix completes it.',
  );
}

function refusalOf(protection: Protection): string {
  const range = protection.getRange();
  const tab = range.getSheet().getName();
  const where =
    protection.getProtectionType() === SpreadsheetApp.ProtectionType.SHEET
      ? `the tab "${tab}" is protected`
      : `the range ${tab}!${range.getA1Notation()} is protected`;
  const description = protection.getDescription();
  return (
    `Safety Sync changed nothing: ${where}${description ? ` ("${description}")` : ''} and you are not one of its editors. ` +
    'Ask whoever protected it to add you as an editor of that protection, or remove the protection.'
  );
}
