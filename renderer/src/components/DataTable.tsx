import type { ReactNode } from 'react';

/** One column of a DataTable: its heading and what a row shows in it. */
export interface Column<Row> {
  /** the column's heading (a `th scope="col"`); a column of buttons names itself for screen readers only */
  readonly heading: ReactNode;
  readonly cell: (row: Row) => ReactNode;
  /** the class of the column's cells */
  readonly className?: string;
}

/** What a row itself carries besides its cells: a class, a state for the style sheet. */
export interface RowAttributes {
  readonly className?: string;
  readonly 'data-state'?: string;
}

/**
 * A list of the box office as a table (today's sales, the print queue): one heading per column, one row per
 * item. Nothing is interactive but what the cells hold, so the keyboard reaches a row's buttons in order.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowAttributes,
  className,
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  rowAttributes?(row: Row): RowAttributes;
  className?: string;
}) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.map((column, index) => (
            // a table's columns are fixed: a column's place is its identity
            <th key={index} scope="col">
              {column.heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {columns.map((column, index) => (
              <td key={index} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
