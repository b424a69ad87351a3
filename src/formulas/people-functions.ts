/**
 * The custom functions over the People and Requirements tabs: =SAFETY_PEOPLE() and
 * =SAFETY_COMPLIANCE(). Those tables are arguments, so a formula recalculates when they change; a
 * compliance share also reads the Completed trainings, Trainings and Exemptions tabs, which are
 * not, so a change there shows once its arguments change or the spreadsheet recalculates it.
 * Neither sends a request or uses any token. The JSDoc blocks are copied onto the top-level
 * wrappers, as in custom-functions.ts.
 */
import { runFormula } from './custom-functions';
import type { FormulaResult } from './values';
import { complianceCell, peopleTable } from './people-formulas';
import { readMatrixTabs } from './training-reads';

/**
 * The People tab's roster, filtered: who each person is, their site, department, roles, manager,
 * whether active and their start date. Site, department and role are compared without regard to
 * case; a person matches a role when it is one of theirs. Pass the People table itself, so that the
 * list follows every change to it. Sends no request.
 * Example: =SAFETY_PEOPLE(SafetySync_People, "Leeds", , "Forklift driver")
 *
 * @param {Array} people The People tab's table, titles first: People!A1:J or SafetySync_People.
 * @param {string} site Only the people of this site; leave empty for every site.
 * @param {string} department Only the people of this department; leave empty for every department.
 * @param {string} role Only the people with this role; leave empty for every role.
 * @param {boolean} include_inactive TRUE to list those marked Active "no" too; FALSE (the default) leaves them out.
 * @param {boolean} with_header TRUE (the default) for a header row, FALSE for none.
 * @return {Array<Array<string|Date>>} One row per person.
 * @customfunction
 */
export function SAFETY_PEOPLE(
  people?: unknown,
  site?: unknown,
  department?: unknown,
  role?: unknown,
  include_inactive?: unknown,
  with_header?: unknown,
): FormulaResult {
  return runFormula('SAFETY_PEOPLE', (formula) =>
    peopleTable({ people, site, department, role, include_inactive, with_header }, formula.clock()),
  );
}

/**
 * The share of the training that counts which is compliant (Valid, Valid (no expiry) or
 * Expiring), counted as the Training matrix counts it: its active people, the trainings each must
 * hold, exemptions left out. For a site, a department, one training, or everyone and every
 * training; format the cell as a percentage. Empty when nothing counts. Pass the People and
 * Requirements tables themselves, so that the share follows every change to them; the completions,
 * the Trainings tab and Exemptions are read from their tabs. Sends no request.
 * Example: =SAFETY_COMPLIANCE(SafetySync_People, Requirements!A1:D, "Leeds")
 *
 * @param {Array} people The People tab's table, titles first: People!A1:J or SafetySync_People.
 * @param {Array} requirements The Requirements tab's table, titles first: Requirements!A1:D.
 * @param {string} site Only the people of this site; leave empty for every site.
 * @param {string} department Only the people of this department; leave empty for every department.
 * @param {string} training_id Only this training; leave empty for every training.
 * @param {Date} as_of The day to judge on; leave empty for today in the spreadsheet's time zone.
 * @return {number} The compliant share, from 0 to 1.
 * @customfunction
 */
export function SAFETY_COMPLIANCE(
  people?: unknown,
  requirements?: unknown,
  site?: unknown,
  department?: unknown,
  training_id?: unknown,
  as_of?: unknown,
): FormulaResult {
  return runFormula('SAFETY_COMPLIANCE', (formula) => {
    const clock = formula.clock();
    return complianceCell(
      { people, requirements, site, department, training_id, as_of },
      () => readMatrixTabs(clock),
      clock,
    );
  });
}
