/** The failures a user can act on: each message says what to do. */

/** A problem the user can fix; its message says how. */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}

export class NotConfiguredError extends UserFacingError {}

/** Another run (another user's, or the schedule's) is working on this spreadsheet. */
export class SpreadsheetBusyError extends UserFacingError {}

/** The user may not write the tabs the run writes (a protection, or view-only access): write-permission.ts. */
export class WriteRefusedError extends UserFacingError {}
