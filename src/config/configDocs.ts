import { allowedValues, CONFIG_OPTIONS } from './configOptions.js';

/** The README lines between which the configuration table is generated. */
export const TABLE_START = '<!-- config table: generated from src/config/configSchema.ts by `npm run docs:config` -->';
export const TABLE_END = '<!-- end of config table -->';

const HEADER = ['variable', 'default', 'allowed', 'meaning'];

/** The table's rows as cells: one per setting, in schema order. */
export function configRows(): string[][] {
  return CONFIG_OPTIONS.map((option) => [
    `\`${option.env}\``,
    option.shownDefault,
    allowedValues(option.schema),
    option.description,
  ]);
}

/** The Markdown table of every setting, padded as Prettier pads it. */
export function configTable(): string {
  const rows = [HEADER, ...configRows()].map((cells) => cells.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = HEADER.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  const [header, ...body] = rows;
  return [line(header ?? HEADER), rule, ...body.map(line)].join('\n');
}

/** `readme` with the text between the markers replaced by the generated table. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${TABLE_START} ... ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${configTable()}\n\n${readme.slice(end)}`;
}

/** The rows of the table between the markers, as trimmed cells (header and rule left out). */
export function documentedRows(readme: string): string[][] {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return [];
  return readme
    .slice(start + TABLE_START.length, end)
    .split('\n')
    .filter((row) => row.startsWith('|'))
    .slice(2)
    .map((row) =>
      row
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}
