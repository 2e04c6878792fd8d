import ExcelJS from 'exceljs';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { enumLabel, enumOptions } from '../../../shared/format.ts';
import { localizedName, type Locale, type LocalizedNames } from '../../../shared/locales.ts';

/** What the workbook needs to name values: reference items and texts in the file's language. */
export interface Namer {
  reference(list: string, id: number): LocalizedNames | undefined;
  text(key: string): string | undefined;
}

/**
 * How a value of an aggregate's answer is written: a group field with a reference list by the
 * item's name, one with enum titles by its title, anything else as it is.
 */
export function valueWriter(
  source: EntityDefinition,
  groupBy: readonly string[],
  locale: Locale,
  namer: Namer,
): (field: string, value: unknown) => unknown {
  const schemas = new Map(
    groupBy.map((p) => [p.split('/').at(-1)!, resolveFieldSchema(source.schema, p) as JSONSchema7 | undefined]),
  );
  return (field, value) => {
    const schema = schemas.get(field) as (JSONSchema7 & { reference?: { list: string } }) | undefined;
    if (value === null || value === undefined) return '';
    if (schema?.reference && typeof value === 'number') {
      const item = namer.reference(schema.reference.list, value);
      return (item && localizedName(item, locale)) || value;
    }
    const options = enumOptions(schema);
    return options ? enumLabel(value, options, (key) => namer.text(key)) : value;
  };
}

/**
 * The report's XLSX: a title row, the column titles, one row per aggregate row.
 * @example await reportWorkbook('Petrol 2026-10-01 – 2026-10-31', ['Region'], [['Tashkent']])
 */
export async function reportWorkbook(title: string, header: string[], rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Report');
  sheet.addRow([title]).font = { bold: true };
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  sheet.columns.forEach((c) => (c.width = 18));
  return Buffer.from(await book.xlsx.writeBuffer());
}
