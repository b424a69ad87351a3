/**
 * Reading the Exemptions tab: each row's pair and reason, columns by their titles, blank rows skipped,
 * and a row that lacks its person, training or reason refused with what it lacks.
 */
import { UnreadableTab } from '../../src/platform/problem-lists';
import { pairKey } from '../../src/trainings/completions-tab';
import { readExemptions } from '../../src/trainings/exemptions';

test('each row: the pair and why; ids as typed (spaces, zeros, =) and the columns found by their titles', () => {
  expect(
    readExemptions([
      ['Reason', 'Notes', 'Training ID', 'User ID'],
      ['Works from home', '', 'TR-1', ' 0042 '],
      ['', '', '', ''],
      ['Agency driver, trained by the agency', 'see contract', '=FORK', 'u 7'],
    ]),
  ).toEqual(
    new Map([
      [pairKey('0042', 'TR-1'), 'Works from home'],
      [pairKey('u 7', '=FORK'), 'Agency driver, trained by the agency'],
    ]),
  );
  expect(readExemptions([])).toEqual(new Map());
});

test('a row without its reason, or without its person, is refused with the row and what is missing', () => {
  let refusal: unknown;
  try {
    readExemptions([
      ['User ID', 'Training ID', 'Reason'],
      ['u1', 'TR-1', ''],
      ['', 'TR-2', 'Not on site'],
    ]);
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(UnreadableTab);
  const message = (refusal as Error).message;
  expect(message).toContain(
    'row 2: "Reason" is empty beside "u1"; an exemption names the person, the training and why',
  );
  expect(message).toContain('row 3: "User ID" is empty beside "TR-2"');
  expect(message).toContain('Exemptions');
});
