/**
 * Realistic sample records of the public services (appeals, cases with hearings, court
 * notices) and the multipart body of a public appeal submission, shared by the contract,
 * browser and crash tests. Staff enter such records on their screens under /admin.
 */

/** An appeal as a citizen fills in /murojaat (valid against schemas/appeal). */
export function appealInput(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const surnames = ['Karimov', 'Yusupova', 'Rahimov', 'Tosheva', 'Abdullayev'];
  const names = ['Jasur', 'Dilnoza', 'Bekzod', 'Malika', 'Sardor'];
  return {
    applicantType: 'INDIVIDUAL',
    customer: {
      surname: surnames[i % 5],
      name: names[i % 5],
      middle_name: 'Olimovich',
      pnfl: `3120589${String(1000000 + i).slice(-7)}`,
    },
    appealTypeId: 1,
    topicId: (i % 5) + 1,
    salesKindId: 1,
    regionId: 1,
    districtId: 101,
    street: `Amir Temur ko‘chasi, ${10 + (i % 90)}-uy`,
    postIndex: '230100',
    phone: `+99890-${String(100 + (i % 900)).padStart(3, '0')}-45-${String(10 + (i % 90)).padStart(2, '0')}`,
    email: `applicant${i}@example.uz`,
    shortDescription: 'Narx yorlig‘i yo‘q',
    content: 'Do‘konda tovarlarning narx yorlig‘i yo‘q, kassada boshqa narx olindi.',
    files: [],
    ...overrides,
  };
}

/** A compliance case with its hearing (valid against schemas/compliance-case). */
export function caseInput(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    caseNumber: `14-05/${100 + i}`,
    caseDate: '2026-10-01',
    regionId: (i % 14) + 1,
    stir: `30${String(1000000 + i).slice(-7)}`,
    name: `“Savdo Market ${i}” MChJ`,
    sector: 'Chakana savdo',
    chairman: 'A. Qodirov',
    basis: 'Iste’molchi murojaati',
    violatedLaw: 'Iste’molchilarning huquqlarini himoya qilish to‘g‘risidagi Qonun',
    finding: 'Narx yorlig‘i qo‘yilmagan',
    summary: 'Narx yorliqlari talablarini buzish',
    hearingAt: '2026-11-24T10:00:00.000Z',
    reviewResult: 'Ko‘rsatma berildi',
    decision: { number: `Q-${i}`, date: '2026-10-20', content: 'Narx yorliqlarini o‘rnatish to‘g‘risida ko‘rsatma' },
    ...overrides,
  };
}

/** A court notice (valid against schemas/court-notice). */
export function noticeInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'SUMMONS',
    caseNumber: '2-1104/2026',
    court: 'Toshkent shahar iqtisodiy sudi',
    regionId: 14,
    recipientName: 'Karimov Jasur',
    recipientPinfl: '31205891234567',
    sentDate: '2026-11-02',
    electronic: true,
    ...overrides,
  };
}

/** A multipart body with `data` (JSON), an optional `draftId` and files. */
export function submission(
  data: unknown,
  files: Array<{ name: string; type: string; content: Buffer }> = [],
  draftId?: string,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----public${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  const field = (name: string, value: string) =>
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  field('data', JSON.stringify(data));
  if (draftId) field('draftId', draftId);
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    parts.push(f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Reference numbers of public appeals: M-<year>-<6 digits>. */
export const REFERENCE_PATTERN = /^M-\d{4}-\d{6}$/;
