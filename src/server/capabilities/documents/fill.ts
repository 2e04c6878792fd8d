import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { ApiError } from '../../errors.ts';

/** The problems of a template's tags that get their own words; any other is `other`. */
export const TAG_PROBLEMS = [
  'unopened_tag',
  'unclosed_tag',
  'duplicate_open_tag',
  'duplicate_close_tag',
  'closing_tag_does_not_match_opening_tag',
  'unclosed_loop',
  'unopened_loop',
  'unbalanced_loop_tags',
  'raw_xml_tag_should_be_only_text_in_paragraph',
] as const;

interface TemplateErrorDetail {
  properties?: { id?: string; xtag?: string; context?: string; explanation?: string };
}

/**
 * A tag read as a path into the values: `{subject.name}` is `values.subject.name`, `{.}` the
 * current value (inside `{#rows}…{/rows}` a row's fields are looked up in the row first,
 * then outside it, as docxtemplater does with its scopes).
 */
const dottedParser = (tag: string) => ({
  get(scope: unknown): unknown {
    if (tag === '.') return scope;
    let value: unknown = scope;
    for (const part of tag.trim().split('.')) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value;
  },
});

/** The DOCX as a ZIP package, or 400 "not a DOCX" when it is not one. */
function openPackage(content: Buffer): PizZip {
  try {
    const zip = new PizZip(content);
    if (!zip.file('word/document.xml') || !zip.file('[Content_Types].xml')) throw new Error('no word/document.xml');
    return zip;
  } catch {
    throw new ApiError(400, 'docgen.notDocx');
  }
}

/** The first broken tag docxtemplater found, as a 400 naming it in the caller's words. */
function brokenTag(error: unknown): ApiError {
  const detail = error as TemplateErrorDetail & { properties?: { errors?: TemplateErrorDetail[] } };
  const first = detail.properties?.errors?.[0] ?? detail;
  const id = first.properties?.id ?? '';
  const tag = first.properties?.xtag ?? first.properties?.context ?? '';
  const problem = (TAG_PROBLEMS as readonly string[]).includes(id) ? id : 'other';
  return new ApiError(400, 'docgen.brokenTag', {
    params: { tag, problemKey: `docgen.tagProblem.${problem}` },
    details: { id, explanation: first.properties?.explanation },
  });
}

/** The template's engine over the package: throws the 400 of its first broken tag. */
function compile(content: Buffer): Docxtemplater {
  const zip = openPackage(content);
  try {
    return new Docxtemplater(zip, {
      paragraphLoop: true,
      // Errors are answered to the uploader (brokenTag), not printed to the server's log.
      errorLogging: false,
      linebreaks: true,
      parser: dottedParser,
      // A field left empty in the record is an empty place in the document, not "undefined".
      nullGetter: () => '',
    });
  } catch (error) {
    throw brokenTag(error);
  }
}

/**
 * Refuses a file that is not a DOCX (400 docgen.notDocx) or whose tags do not parse (400
 * docgen.brokenTag naming the first broken tag), before an admin's upload is stored.
 */
export function checkTemplate(content: Buffer): void {
  compile(content);
}

/**
 * The template filled with the values: a DOCX package (ZIP, deflated).
 * @example fillTemplate(await readFile('templates/correspondence/letter.docx'), { number: 'A-1' })
 */
export function fillTemplate(content: Buffer, values: Record<string, unknown>): Buffer {
  const doc = compile(content);
  try {
    doc.render(values);
  } catch (error) {
    throw brokenTag(error);
  }
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}
