/**
 * What a run would take on Google's side: the emulator's cost model (dev/emulator/runtime/cost-model.ts)
 * prices what the run did, with the low, central and high figures, and the model's lower bound of a
 * full import is priced the same way. Pure functions of the results.
 */
import { createHash } from 'node:crypto';

import { readRounds } from '../../src/api/completion-rounds';
import { MAX_PAGE_SIZE } from '../../src/api/completions-contract';
import { COMPLETION_COLUMNS } from '../../src/trainings/completions/table';
import {
  type CostBreakdown,
  type CostFigures,
  type FetchRound,
  fetchAllWaves,
  fetchRoundMs,
  type Preset,
  priceQuantities,
} from '../emulator/runtime/cost-model';
import type { BenchConfig, Measurement } from './measurement';

/**
 * A short fingerprint of what every run did on Google's side (its calls, cells, commits and fetch
 * rounds), in a fixed order: two runs of the bench print the same one on any machine, however loaded,
 * because the emulator's clock is virtual. This machine's timings and memory are left out.
 */
export function googleChecksum(measurements: readonly Measurement[]): string {
  const figures = measurements
    .map(({ scenario, implementation, records, google }) => ({ scenario, implementation, records, google }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return createHash('sha256').update(JSON.stringify(figures)).digest('hex').slice(0, 16);
}

/** The Sheets API's recommended largest request (Sheets API limits page). */
export const SHEETS_API_REQUEST_BYTES = 2 * 1024 * 1024;

export interface GoogleEstimate {
  /** At the central figures, split by where the time goes. */
  central: CostBreakdown;
  lowMs: number;
  highMs: number;
}

export function googleEstimate(
  measurement: Measurement,
  figures: Record<Preset, CostFigures>,
): GoogleEstimate {
  return {
    central: priceQuantities(measurement.google, figures.central),
    lowMs: priceQuantities(measurement.google, figures.low).total,
    highMs: priceQuantities(measurement.google, figures.high).total,
  };
}

/**
 * The cheaper of the two ways to write `cells` holding `bytes`: `Range.setValues`, or the Sheets API
 * in requests of at most 2 MB.
 */
export function cheapestWriteMs(cells: number, bytes: number, figures: CostFigures): number {
  const requests = Math.max(1, Math.ceil(bytes / SHEETS_API_REQUEST_BYTES));
  return Math.min(
    cells * figures.setValuesPerCellMs,
    cells * figures.sheetsApiPerCellMs + requests * figures.sheetsApiRequestMs,
  );
}

/** The largest page's body seen in a run, in KB (a full page when the run read more than one). */
function largestPageKb(measurement: Measurement): number {
  return Math.max(0, ...measurement.google.fetchRounds.map((round) => round.largestKb));
}

/**
 * The least a full import of `measurement.records` can take on Google's side, by the model: the
 * rounds of an exact read (every page read, then read again to confirm it; page 1 of the first pass
 * alone, then `batchSize` pages a round; the confirming pass, which knows the last page, sends page 1
 * with the pages after it), each the service's latency plus a round trip per wave of requests and
 * the batch's overhead; the users' names asked within the confirming pass's rounds (their ids are
 * known after the first pass), or all in one round of their own after a single page; the whole table
 * written the cheaper way, in one commit. A table's bytes are taken to be its pages' (the same
 * fields, as the run's largest answer measured them).
 */
export function googleLowerBoundMs(
  measurement: Measurement,
  config: BenchConfig,
  figures: CostFigures,
): number {
  const pages = Math.max(1, Math.ceil(measurement.records / MAX_PAGE_SIZE));
  const pageKb = largestPageKb(measurement);
  const round = (requests: number): number =>
    fetchRoundMs(
      {
        batched: requests > 1,
        requests,
        serviceMs: fetchAllWaves(requests) * config.latencyMs,
        largestKb: pageKb,
      } satisfies FetchRound,
      figures,
    );
  const users = measurement.expectedUserRequests ?? 0;
  const rounds = [...readRounds(pages, config.batchSize), ...(pages === 1 && users > 0 ? [users] : [])];
  const fetchMs = rounds.reduce((sum, requests) => sum + round(requests), 0);
  const cells = (measurement.records + 1) * COMPLETION_COLUMNS.length;
  return fetchMs + cheapestWriteMs(cells, pages * pageKb * 1024, figures) + figures.commitMs;
}
