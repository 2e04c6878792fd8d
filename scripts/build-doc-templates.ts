/**
 * Builds the default document templates (templates/<entity>/<kind>.docx) from a minimal
 * OOXML skeleton with pizzip: one page, the committee's heading, then labelled lines whose
 * values are docxtemplater tags (`{number}`, `{consumer.lastName}`, `{today}`…; see
 * docs/documents.md). They are seeded as version 1 of each kind at first start; admins upload
 * their own versions on the document templates screen.
 *
 * Run: `npx tsx scripts/build-doc-templates.ts` (rewrites the files; commit them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import PizZip from 'pizzip';

/** A line of a template: a heading, a centred title, a label with its value, or plain text. */
type Line = { title: string } | { heading: string } | { label: string; value: string } | { text: string };

const COMMITTEE = 'ЎЗБЕКИСТОН РЕСПУБЛИКАСИ РАҚОБАТНИ РИВОЖЛАНТИРИШ ВА ИСТЕЪМОЛЧИЛАР ҲУҚУҚЛАРИНИ ҲИМОЯ ҚИЛИШ ҚЎМИТАСИ';
const FOOTER: Line = { text: 'Ҳужжат {today} санада {user} томонидан тайёрланди.' };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const run = (text: string, bold = false, size = 24): string =>
  `<w:r><w:rPr><w:rFonts w:ascii="Liberation Serif" w:hAnsi="Liberation Serif" w:cs="Liberation Serif"/>${bold ? '<w:b/>' : ''}<w:sz w:val="${size}"/></w:rPr><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;

const paragraph = (line: Line): string => {
  if ('heading' in line)
    return `<w:p><w:pPr><w:jc w:val="center"/><w:spacing w:after="240"/></w:pPr>${run(line.heading, true, 22)}</w:p>`;
  if ('title' in line)
    return `<w:p><w:pPr><w:jc w:val="center"/><w:spacing w:before="240" w:after="240"/></w:pPr>${run(line.title, true, 28)}</w:p>`;
  if ('label' in line)
    return `<w:p><w:pPr><w:spacing w:after="120"/></w:pPr>${run(`${line.label}: `, true)}${run(line.value)}</w:p>`;
  return `<w:p><w:pPr><w:spacing w:before="360"/></w:pPr>${run(line.text, false, 20)}</w:p>`;
};

/** The DOCX package of the lines. */
export function buildDocx(lines: readonly Line[]): Buffer {
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${lines.map(paragraph).join('')}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="850" w:bottom="1134" w:left="1701" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`,
  );
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}

const correspondence = (title: string, extra: Line[]): Line[] => [
  { heading: COMMITTEE },
  { title: `${title} № {number}` },
  { label: 'Сана', value: '{date}' },
  { label: 'Ҳудуд', value: '{regionId}' },
  { label: 'Ҳужжат тури', value: '{type}' },
  { label: 'Юборувчи', value: '{sender}' },
  { label: 'Ариза берувчи', value: '{applicant}' },
  { label: 'Қисқача мазмуни', value: '{summary}' },
  ...extra,
  { label: 'Ижрочи', value: '{executorId}' },
  { label: 'Имзоловчи', value: '{signerId}' },
  { label: 'Ҳолати', value: '{status}' },
  FOOTER,
];

/** Every default template: entity → kind → lines. */
export const TEMPLATES: Record<string, Record<string, Line[]>> = {
  correspondence: {
    letter: correspondence('ХАТ', [
      { label: 'Чиқиш рақами ва санаси', value: '{outgoingNumber} {outgoingDate}' },
      { label: 'Ижро муддати', value: '{deadline}' },
    ]),
    decision: correspondence('ҚАРОР', [{ label: 'Қарор асоси', value: '{decisionGrounds}' }]),
    protocol: correspondence('БАЁННОМА', [{ label: 'Бўлим', value: '{department}' }]),
    notice: correspondence('БИЛДИРИШНОМА', [{ label: 'Ижро муддати', value: '{deadline}' }]),
  },
  'pharmacy-appeal': {
    executor: [
      { heading: COMMITTEE },
      { title: 'ИЖРОЧИ ХУЛОСАСИ' },
      { label: 'Мурожаат', value: '№ {number}, {receivedDate}' },
      { label: 'Ҳудуд', value: '{regionId}, {districtId}' },
      { label: 'Истеъмолчи', value: '{consumer.lastName} {consumer.firstName} {consumer.middleName}' },
      { label: 'Дорихона', value: '{pharmacy.name}, СТИР {pharmacy.stir}, {pharmacy.address}' },
      { label: 'Дори воситаси', value: '{medication.name}, {medication.saleDate}' },
      { label: 'Тўланган нарх', value: '{medication.paymentPrice}' },
      { label: 'Референт нарх', value: '{medication.referentPrice}' },
      { label: 'Пул қайтарилди', value: '{refunded}' },
      { label: 'Ижрочи', value: '{executorId}' },
      { label: 'Ижро муддати', value: '{deadline}' },
      { label: 'Ҳолати', value: '{status}' },
      FOOTER,
    ],
  },
  'compliance-case': {
    decision: [
      { heading: COMMITTEE },
      { title: 'ҚАРОР № {decision.number}' },
      { label: 'Қарор санаси', value: '{decision.date}' },
      { label: 'Иш', value: '№ {caseNumber}, {caseDate}' },
      { label: 'Ҳудуд', value: '{regionId}' },
      { label: 'Хўжалик юритувчи субъект', value: '{name}, СТИР {stir}' },
      { label: 'Манзил', value: '{address}' },
      { label: 'Бузилган қонун ва модда', value: '{violatedLaw} {article}' },
      { label: 'Қарор мазмуни', value: '{decision.content}' },
      { label: 'Жарима', value: '{fine}' },
      { label: 'Ижро муддати', value: '{executionDeadline}' },
      { label: 'Ҳолати', value: '{status}' },
      FOOTER,
    ],
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [entity, kinds] of Object.entries(TEMPLATES)) {
    for (const [kind, lines] of Object.entries(kinds)) {
      const file = path.join('templates', entity, `${kind}.docx`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, buildDocx(lines));
      console.log(`wrote ${file}`);
    }
  }
}
