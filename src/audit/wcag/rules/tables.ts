// Data tables (ACT a25f45, d0f69e): a `headers` attribute names cells of the same table (and not
// the cell itself), and every header cell heads at least one cell. The table model follows
// HTML's: rows of cells with their colspan and rowspan laid out on a grid.
import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import type { WcagContext } from '../context.ts';
import { failed, passed, type WcagRule } from './rule.ts';

interface Slot {
  cell: Element;
  row: number;
  col: number;
}

interface TableModel {
  cells: Element[];
  slots: Slot[];
  /** Slot entries of each cell (one per grid position it covers). */
  at: Map<Element, Slot[]>;
  /** grid[row][col] → cell. */
  grid: Array<Array<Element | undefined>>;
}

const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);

function cellsOf(table: Element): Element[][] {
  const rows: Element[][] = [];
  const visit = (parent: Element) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      if (child.name === 'tr') rows.push(child.children.filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th')));
      else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') visit(child);
    }
  };
  visit(table);
  return rows;
}

function span(value: string | undefined, max: number): number {
  const n = Number.parseInt(value ?? '1', 10);
  return Number.isNaN(n) || n < 1 ? 1 : Math.min(n, max);
}

export function tableModel(ctx: WcagContext, table: Element): TableModel {
  const rows = table.name === 'table' ? cellsOf(table) : ariaRows(ctx, table);
  const grid: Array<Array<Element | undefined>> = [];
  const slots: Slot[] = [];
  const at = new Map<Element, Slot[]>();
  const cells: Element[] = [];
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let col = 0;
    for (const cell of row) {
      while (grid[r]![col] !== undefined) col++;
      cells.push(cell);
      const colspan = span(cell.attribs.colspan, 1000);
      const rowspan = span(cell.attribs.rowspan, 65534);
      const lastRow = Math.min(r + rowspan, rows.length);
      for (let y = r; y < lastRow; y++) {
        grid[y] ??= [];
        for (let x = col; x < col + colspan; x++) {
          grid[y]![x] = cell;
          const slot = { cell, row: y, col: x };
          slots.push(slot);
          at.set(cell, [...(at.get(cell) ?? []), slot]);
        }
      }
      col += colspan;
    }
  });
  return { cells, slots, at, grid };
}

function* visibleTables(ctx: WcagContext): Generator<Element> {
  for (const role of TABLE_ROLES) {
    for (const table of ctx.withRole(role)) {
      if (ctx.isIncluded(table) === false || ctx.isVisible(table) === false) continue;
      yield table;
    }
  }
}

const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Rows and cells of an ARIA table (elements with row and cell roles, not inside a nested table). */
function ariaRows(ctx: WcagContext, table: Element): Element[][] {
  const rows: Element[][] = [];
  const stack: Element[] = [...table.children].filter(isTag).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    const role = ctx.role(el);
    if (role !== null && TABLE_ROLES.has(role)) continue;
    if (role === 'row') {
      const cells: Element[] = [];
      const inner: Element[] = [...el.children].filter(isTag).reverse();
      while (inner.length > 0) {
        const c = inner.pop()!;
        if (CELL_ROLES.has(ctx.role(c) ?? '')) cells.push(c);
        else if (ctx.role(c) !== 'row') inner.push(...[...c.children].filter(isTag).reverse());
      }
      rows.push(cells);
      continue;
    }
    stack.push(...[...el.children].filter(isTag).reverse());
  }
  return rows;
}

export const tdHeaders: WcagRule = {
  id: 'td-headers',
  actRules: ['a25f45'],
  criteria: ['1.3.1'],
  applicability: 'A `headers` attribute on a cell of a visible table (role table, grid or treegrid) in the accessibility tree.',
  expectation: 'Each of its ids names another cell of the same table.',
  *evaluate(ctx) {
    for (const table of visibleTables(ctx)) {
      const model = tableModel(ctx, table);
      const cells = new Set(model.cells);
      for (const cell of model.cells) {
        const headers = cell.attribs.headers;
        if (headers === undefined) continue;
        const ids = headers.trim().split(/\s+/).filter((id) => id !== '');
        const bad = ids.find((id) => {
          const target = ctx.byId(id);
          return target === undefined || target === cell || !cells.has(target);
        });
        if (bad === undefined && ids.length > 0) yield passed(cell);
        else yield failed(cell, bad === undefined ? 'the headers attribute is empty' : `headers names "${bad}", which is not another cell of this table`);
      }
    }
  },
};

export const thHasCells: WcagRule = {
  id: 'th-has-data-cells',
  actRules: ['d0f69e'],
  criteria: ['1.3.1'],
  applicability: 'A visible row or column header in the accessibility tree, inside a table or grid in the accessibility tree.',
  expectation: 'It is assigned to at least one cell: a cell in its column (column header) or row (row header), or one naming it in `headers`.',
  *evaluate(ctx) {
    for (const table of visibleTables(ctx)) {
      const model = tableModel(ctx, table);
      const named = new Set<string>();
      for (const cell of model.cells) for (const id of (cell.attribs.headers ?? '').trim().split(/\s+/)) if (id !== '') named.add(id);
      // A cell with a headers attribute is assigned to those headers only.
      const implicit = (other: Element | undefined, cell: Element) => other !== undefined && other !== cell && other.attribs.headers === undefined;
      for (const cell of model.cells) {
        const role = ctx.role(cell);
        if (role !== 'columnheader' && role !== 'rowheader') continue;
        if (ctx.isIncluded(cell) === false || ctx.isVisible(cell) === false) continue;
        const id = cell.attribs.id;
        const assigned =
          (id !== undefined && named.has(id)) ||
          (model.at.get(cell) ?? []).some((slot) =>
            role === 'columnheader'
              ? model.grid.some((row) => implicit(row[slot.col], cell))
              : (model.grid[slot.row] ?? []).some((other) => implicit(other, cell)),
          );
        yield assigned ? passed(cell) : failed(cell, `the ${role === 'columnheader' ? 'column' : 'row'} header heads no cell`);
      }
    }
  },
};
