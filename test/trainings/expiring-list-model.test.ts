/**
 * Seeded sequences of a training manager's weeks on the Expiring trainings tab: days pass, the
 * Trainings tab's Validity, Required and Expiring window change, and the manager types in a column of
 * their own on any row (the heading's included), each step followed by Show training status. After
 * every step the tab is checked against the tests' own rules (training-tabs-expected.ts, nothing of
 * src/): the pairs in the actionable order with the heading above the older lapses, Required, the
 * days in words and as numbers, the links; and the manager's column, where each cell stays beside
 * its pair (or the heading) for as long as that row is listed, and leaves with it.
 *
 * A failing sequence throws with its seed and steps; EXPIRING_MODEL_SEED=n replays sequence n,
 * EXPIRING_MODEL_SEQUENCES=n runs the first n.
 */
import { columnLetters } from '../../dev/emulator/spreadsheet/a1-notation';
import { createAddonHarness } from '../support/addon-harness';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';
import type { Rule } from '../support/training-oracle';
import {
  CATALOGUE,
  EXPIRING,
  expectExpiring,
  importAll,
  type Listed,
  listedKey,
  NOW,
  oracle,
  SHOW,
  TIME_ZONE,
  today,
  trainingsInListOrder,
  workbook,
} from './training-tabs-expected';

const SEQUENCES = 6;
const STEPS = 10;
const DAY_MS = 86_400_000;
const USER_COLUMN_TITLE = 'Booked on';

/** What the manager may type in a training's Validity, Required and Expiring window cells. */
const VALIDITIES = ['', 6, 12, 24] as const;
const REQUIRED = ['yes', ''] as const;
const WINDOWS = ['', 0, 60] as const;

/** A training's cells on the Trainings tab as the manager typed them. */
interface Typed {
  validity: (typeof VALIDITIES)[number];
  required: (typeof REQUIRED)[number];
  window: (typeof WINDOWS)[number];
}

/** A training's rule as typed, in the tests' reading (an empty window: the default 30 days). */
function ruleOf({ validity, required, window }: Typed): Rule {
  return {
    name: '',
    validityMonths: validity === '' ? null : validity,
    required: required === 'yes',
    expiringDays: window === '' ? 30 : window,
  };
}

const { seeds } = sequenceSeeds('EXPIRING_MODEL', SEQUENCES);

test.each(seeds)(
  'sequence %i: the list follows the day and the catalogue, the manager’s cells their rows',
  async (seed) => {
    const random: Random = seeded(seed);
    const harness = await createAddonHarness({
      dataset: { seed: 900 + seed, completions: 250, users: 12, trainings: 4 },
      timeZone: TIME_ZONE,
      emulator: { startTime: NOW },
    });
    const steps: string[] = [];
    try {
      harness.connect();
      importAll(harness);
      const data = await harness.dataset.data();
      const trainings = trainingsInListOrder(data);
      const rules = new Map<string, Rule>();
      const catalogue = new Map<string, Typed>(
        trainings.map((training) => [training, { validity: 12, required: '', window: '' }]),
      );
      const typeRule = (training: string) => {
        const typed = catalogue.get(training)!;
        const row = trainings.indexOf(training) + 2;
        workbook(harness).typeValues(`${CATALOGUE}!E${row}:G${row}`, [
          [typed.validity, typed.required, typed.window],
        ]);
        rules.set(training, ruleOf(typed));
      };
      trainings.forEach(typeRule);
      let at = NOW;
      harness.clickMenu(SHOW);
      let listed = expectExpiring(harness, oracle(data, trainings, rules, today(at)));
      const width = harness.displayed(EXPIRING)[0]!.length;
      const userColumn = columnLetters(width + 1);
      workbook(harness).typeValues(`${EXPIRING}!${userColumn}1`, [[USER_COLUMN_TITLE]]);
      /** The model of the manager's column: each listed row's cell, by what the row is. */
      const booked = new Map<string, string>();

      for (let step = 1; step <= STEPS; step++) {
        const action = random.pick(['days', 'rule', 'type', 'type'] as const);
        if (action === 'days') {
          const days = random.pick([1, 7, 30, 61, 120, 400]);
          at += days * DAY_MS;
          harness.emulator.clock.advance(days * DAY_MS);
          steps.push(`${step}. ${days} days pass (today ${today(at)})`);
        } else if (action === 'rule') {
          const training = random.pick(trainings);
          const typed = catalogue.get(training)!;
          const field = random.pick(['validity', 'required', 'window'] as const);
          if (field === 'validity') typed.validity = random.pick(VALIDITIES);
          else if (field === 'required') typed.required = random.pick(REQUIRED);
          else typed.window = random.pick(WINDOWS);
          typeRule(training);
          steps.push(`${step}. ${training}: ${field} typed as "${String(typed[field])}"`);
        } else if (listed.length > 0) {
          // The heading's row now and then: a cell typed on it must stay on it too.
          const heading = listed.indexOf(null);
          const index = heading >= 0 && random.chance(0.3) ? heading : random.int(0, listed.length - 1);
          const text = `Booked in step ${step}`;
          workbook(harness).typeValues(`${EXPIRING}!${userColumn}${index + 2}`, [[text]]);
          booked.set(listedKey(listed[index]!), text);
          steps.push(
            `${step}. "${text}" typed on row ${index + 2} (${listedKey(listed[index]!).replace('\n', ' × ')})`,
          );
        } else steps.push(`${step}. nothing listed to type beside`);
        harness.clickMenu(SHOW);
        expect(workbook(harness).ui.alerts).toEqual([]);
        listed = expectExpiring(harness, oracle(data, trainings, rules, today(at)));
        // A row that left the list took its cell with it.
        const keys = new Set(listed.map(listedKey));
        for (const key of [...booked.keys()]) if (!keys.has(key)) booked.delete(key);
        const shown = harness.displayed(EXPIRING).map((row) => row[width] ?? '');
        expect(shown[0]).toBe(USER_COLUMN_TITLE);
        expect(shown.slice(1, listed.length + 1)).toEqual(
          listed.map((entry: Listed | null) => booked.get(listedKey(entry)) ?? ''),
        );
      }
    } catch (error) {
      throw new Error(
        `EXPIRING_MODEL_SEED=${seed} replays this sequence. Its steps:\n${steps.join('\n')}\n${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      await harness.done();
    }
  },
);
