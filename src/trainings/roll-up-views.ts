/**
 * Where the Overview's roll-ups link: a filter view of the Training matrix per site and per
 * department (sheets/filter-views.ts), showing that group's rows only. Their ids are kept in the
 * document state with the matrix tab's id, so that each run updates the same views and a link a
 * manager bookmarked keeps working; a view the user deleted is made again. Where the Sheets API is not
 * there or refuses, each name links to its group's first row on the matrix instead, and the run says
 * why.
 */
import type { DocumentState } from '../platform/document-state';
import type { RollUpFigures, RollUpRow } from '../platform/overview/roll-up-block';
import { keepFilterViews, type WantedFilterView } from '../sheets/filter-views';
import type { TrainingMatrix } from './matrix';
import { MATRIX_FILTER, matrixPersonRow } from './matrix-grid';
import { type Grouping, GROUPINGS, type RollUp, type RollUps } from './roll-ups';

const STATE_KEY = 'safetySync.rollUpViews';

interface RollUpViewsState {
  /** The matrix tab the views are on: a new matrix tab starts with none. */
  sheetId: number;
  ids: Record<string, number>;
}

/** How a view's title (Data › Filter views) names its column. */
const VIEW_TITLES: Readonly<Record<Grouping, string>> = { site: 'Site', department: 'Department' };

function viewKey(grouping: Grouping, name: string): string {
  return `${grouping}:${name}`;
}

/** The views the roll-ups link to: each hides every other value its column shows on the matrix. */
function wantedViews(matrix: TrainingMatrix, rollUps: RollUps | null): WantedFilterView[] {
  if (rollUps === null) return [];
  return GROUPINGS.flatMap(({ grouping, of }) => {
    // The compliance by training, between the header and the people, is blank in these columns.
    const shown = new Set(['', ...matrix.people.map(of)]);
    return rollUps[grouping].map(({ name }): WantedFilterView => ({
      key: viewKey(grouping, name),
      title: `${VIEW_TITLES[grouping]}: ${name === '' ? '(none)' : name} (Safety Sync)`,
      column: MATRIX_FILTER[grouping],
      hiddenValues: [...shown].filter((value) => value !== name).sort(),
    }));
  });
}

export interface LinkedRollUps {
  figures: RollUpFigures;
  /** For the run's message: why the names link to rows rather than views; null when they link to views (or there are none). */
  note: string | null;
  /** Keeps the views' ids in the document state: with the run's other state, after its tabs' writes. */
  keepIds(): void;
}

/**
 * Keeps the matrix's views for these roll-ups (no request when there are none and none was kept)
 * and says where each roll-up links. Sheets API requests only, nothing buffered: the caller's next
 * direct write still finds nothing waiting to be committed.
 */
export function linkRollUps(
  state: DocumentState,
  target: { spreadsheetId: string; matrixSheetId: number },
  matrix: TrainingMatrix,
  rollUps: RollUps | null,
): LinkedRollUps {
  const kept = state.get<RollUpViewsState>(STATE_KEY);
  const keptIds = kept?.sheetId === target.matrixSheetId ? kept.ids : {};
  const views = keepFilterViews(
    {
      spreadsheetId: target.spreadsheetId,
      sheetId: target.matrixSheetId,
      headerRow: MATRIX_FILTER.headerRow,
    },
    wantedViews(matrix, rollUps),
    keptIds,
  );
  const keepIds = () => {
    if (views.ids === null) return;
    const now: RollUpViewsState = { sheetId: target.matrixSheetId, ids: views.ids };
    if (JSON.stringify(now) !== JSON.stringify({ sheetId: target.matrixSheetId, ids: keptIds }))
      state.set(STATE_KEY, now);
  };
  // No roll-up links anywhere: a view left over that could not be deleted is no one's concern.
  if (rollUps === null) return { figures: null, note: null, keepIds };
  const rowOf = (grouping: Grouping, rollUp: RollUp): RollUpRow => {
    const { of } = GROUPINGS.find((each) => each.grouping === grouping)!;
    return {
      ...rollUp,
      link: {
        sheetId: target.matrixSheetId,
        filterViewId: views.ids?.[viewKey(grouping, rollUp.name)] ?? null,
        firstRow: matrixPersonRow(
          matrix.people.findIndex((person) => person.active && of(person) === rollUp.name),
        ),
      },
    };
  };
  return {
    figures: {
      bySite: rollUps.site.map((rollUp) => rowOf('site', rollUp)),
      byDepartment: rollUps.department.map((rollUp) => rowOf('department', rollUp)),
    },
    note:
      views.ids === null
        ? `The Overview's sites and departments open the Training matrix at their first row, not filtered, because ${views.problem}.`
        : null,
    keepIds,
  };
}
