import { strToU8, zipSync, type Zippable } from 'fflate';
import { exportFiles } from './export-files';
import { exportReadme } from './export-readme';
import type { ShiftReport } from '../contract/shift';
import type { JournalEntry } from '../domain/journal';

/**
 * A shift's export as zip bytes (design "Export and print"): README.txt and the CSV files of export-files.ts,
 * UTF-8, deflated. Pure: the same report and entries give the same bytes (every file is dated `madeAt`, the
 * closing time of a Z export), so exporting a closed shift twice gives one file twice.
 *
 * zipSync runs on the event loop: a shift's journal is thousands of rows at most (a few MB of CSV, tens of ms).
 */
export function exportZip(report: ShiftReport, entries: readonly JournalEntry[], madeAt: Date): Uint8Array {
  const files: Zippable = { 'README.txt': strToU8(exportReadme(report)) };
  for (const [name, content] of Object.entries(exportFiles(report, entries))) files[name] = strToU8(content);
  const mtime = report.shift.closedAt === undefined ? madeAt : new Date(report.shift.closedAt);
  return zipSync(files, { level: 6, mtime });
}

/** The file name a shift's export is downloaded as: `kassa-shift-<number>.zip`. */
export function exportFileName(report: ShiftReport): string {
  return `kassa-shift-${report.shift.number}.zip`;
}
