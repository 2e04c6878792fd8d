/**
 * Generated documents (manifest `documents`, src/server/capabilities/documents) on both
 * backends, one app each: a letter made from a correspondence record is a valid DOCX package
 * holding the record's values as users read them (a Cyrillic name, the region's name in the
 * caller's language, DD.MM.YYYY dates) and a PDF whose text holds them too; both are attached
 * to the record, listed, audited, and stay attached when the record is edited. An admin's
 * template version 2 is used at once; a non-DOCX or a broken tag is refused naming it. A role
 * without read gets 403; a missing LibreOffice is a clear 503 that attaches nothing; a kind
 * without an active template a clear 404. The pharmacy appeal's executor document answers on
 * the specification's path. Conversions skip without LibreOffice (REQUIRE_LIBREOFFICE=1 fails).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import PizZip from 'pizzip';
import { Window } from 'happy-dom';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { multipart } from '../support/multipart.ts';
import { libreofficeTestsEnabled, pdfText } from '../support/libreoffice.ts';
import { buildDocx } from '../../scripts/build-doc-templates.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createSampler } from '../support/sample-data.ts';

const office = libreofficeTestsEnabled();
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const pharmacySample = createSampler(
  registry.entities.get('pharmacy-appeal')!.schema,
  registry.references,
  createServerAjv(),
);

const LETTER = {
  number: 'ХТ-17/2026',
  date: '2026-03-05',
  type: 'LETTER',
  regionId: 1,
  applicant: 'Каримов Анвар Ботирович',
  summary: 'Нархлар ҳақида мурожаат',
};

/** The text of word/document.xml's runs, after checking the package and that the XML parses. */
function docxText(docx: Buffer): string {
  const zip = new PizZip(docx);
  expect(zip.file('[Content_Types].xml')?.asText()).toContain('wordprocessingml.document.main+xml');
  const xml = zip.file('word/document.xml')!.asText();
  const parsed = new new Window().DOMParser().parseFromString(xml, 'application/xml');
  expect(parsed.getElementsByTagName('parsererror')).toHaveLength(0);
  return [...parsed.getElementsByTagName('w:t')].map((t) => t.textContent).join('');
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`generated documents on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let letterId: number;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const created = await app.inject({ method: 'POST', url: '/api/document/create', payload: LETTER });
      expect(created.statusCode, created.body).toBe(200);
      letterId = created.json().id;
    }, 120_000);
    afterAll(async () => close?.());

    const download = async (id: string) => {
      const res = await app.inject({ method: 'GET', url: `/api/file-entity/get/${id}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload;
    };
    const generate = (kind: string, lang = 'ru') =>
      app.inject({ method: 'POST', url: `/api/document/documents/${letterId}/${kind}?lang=${lang}` });
    const documentsOf = async () =>
      (await app.inject({ method: 'GET', url: `/api/document/documents/${letterId}` })).json().list as Array<{
        id: number;
        kind: string;
        templateVersion: number;
      }>;
    const upload = (kind: string, name: string, content: Buffer, entity = 'correspondence') => {
      const body = multipart([{ field: 'file', name, content }]);
      return app.inject({
        method: 'POST',
        url: `/api/document-templates/${entity}/${kind}?lang=en`,
        payload: body.payload,
        headers: body.headers,
      });
    };

    it("lists the routes in the OpenAPI document, the specification's alias too", async () => {
      const paths = Object.keys((await app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
      for (const p of [
        '/api/document/documents/{id}/{kind}',
        '/api/document/documents/{id}',
        '/api/pharm/doer/get/docx/file/{id}',
        '/api/document-templates',
        '/api/document-templates/{entity}/{kind}',
      ])
        expect(paths).toContain(p);
    });

    it('seeds version 1 of every declared kind and lists them for the admin', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/document-templates' });
      expect(res.statusCode, res.body).toBe(200);
      const kinds = res.json().list as Array<{ entity: string; kind: string; versions: Array<{ version: number }> }>;
      expect(kinds.map((k) => `${k.entity}/${k.kind}`).sort()).toEqual([
        'compliance-case/decision',
        'correspondence/decision',
        'correspondence/letter',
        'correspondence/notice',
        'correspondence/protocol',
        'pharmacy-appeal/executor',
      ]);
      for (const k of kinds) expect(k.versions.map((v) => v.version)).toEqual([1]);
    });

    it.skipIf(!office)(
      "makes a letter: a DOCX and a PDF holding the record's values as read, attached, listed and audited",
      async () => {
        const res = await generate('letter');
        expect(res.statusCode, res.body).toBe(200);
        const made = res.json();
        expect(made).toMatchObject({ kind: 'letter', templateVersion: 1 });
        const text = docxText(await download(made.docx.id));
        expect(text).toContain('ХТ-17/2026');
        expect(text).toContain('Каримов Анвар Ботирович');
        expect(text).toContain('Республика Каракалпакстан'); // the region's name in the caller's language
        expect(text).toContain('05.03.2026');
        expect(text).not.toContain('undefined');
        const pdf = await download(made.pdf.id);
        expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
        const pdfWords = (await pdfText(pdf)).replace(/\s+/g, ' ');
        expect(pdfWords).toContain('ХТ-17/2026');
        expect(pdfWords).toContain('Каримов Анвар Ботирович');
        expect(pdfWords).toContain('05.03.2026');
        expect((await documentsOf()).map((d) => d.id)).toContain(made.id);
        const audit = (await app.inject({ method: 'GET', url: `/api/document/audit/${letterId}` })).json().list;
        expect(audit[0]).toMatchObject({ action: 'document' });
        expect(audit[0].note).toContain(made.docx.name);
        // Editing the record keeps the generated files attached (no file field names them).
        const record = (await app.inject({ method: 'GET', url: `/api/document/get/${letterId}` })).json();
        const edited = await app.inject({
          method: 'PUT',
          url: `/api/document/update/${letterId}`,
          payload: { ...record, summary: 'Янги мазмун' },
        });
        expect(edited.statusCode, edited.body).toBe(200);
        await download(made.pdf.id);
      },
      120_000,
    );

    it.skipIf(!office)(
      "uses an admin's template version 2 at once; older versions stay downloadable",
      async () => {
        const v2 = buildDocx([{ title: 'ИККИНЧИ ТАҲРИР {number}' }, { label: 'Ариза берувчи', value: '{applicant}' }]);
        const res = await upload('letter', 'letter-v2.docx', v2);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ entity: 'correspondence', kind: 'letter', version: 2, active: true });
        const made = await generate('letter');
        expect(made.statusCode, made.body).toBe(200);
        expect(made.json().templateVersion).toBe(2);
        expect(docxText(await download(made.json().docx.id))).toContain('ИККИНЧИ ТАҲРИР ХТ-17/2026');
        const list = (await app.inject({ method: 'GET', url: '/api/document-templates' })).json().list;
        const letter = list.find(
          (k: { kind: string; entity: string }) => k.entity === 'correspondence' && k.kind === 'letter',
        );
        expect(letter.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
        const v1 = await app.inject({ method: 'GET', url: `/api/document-templates/file/${letter.versions[1].id}` });
        expect(v1.statusCode).toBe(200);
        expect(v1.rawPayload.subarray(0, 2).toString()).toBe('PK');
      },
      120_000,
    );

    it('refuses a file that is not a DOCX and a template with a broken tag, naming the tag', async () => {
      const text = await upload('notice', 'notice.docx', Buffer.from('just text'));
      expect(text.statusCode).toBe(400);
      expect(text.json().message).toBe('The file is not a Word document (.docx)');
      const broken = await upload('notice', 'notice.docx', buildDocx([{ label: 'Рақам', value: '{number' }]));
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toBe('The template has a broken tag “number”: the closing brace } is missing');
      const list = (await app.inject({ method: 'GET', url: '/api/document-templates' })).json().list;
      const notice = list.find(
        (k: { kind: string; entity: string }) => k.entity === 'correspondence' && k.kind === 'notice',
      );
      expect(notice.versions).toHaveLength(1);
    });

    it('refuses a role without read on the record (403) and outsiders to the template screen', async () => {
      const user = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: {
          username: `docgen-pm-${backend.name}`,
          firstName: 'Price',
          lastName: 'Monitor',
          isOuter: false,
          canLogin: true,
          roles: ['price-monitor'],
          regionId: 1,
        },
      });
      expect(user.statusCode, user.body).toBe(200);
      await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: user.json().id, password: 'docgen password 1' },
      });
      const session = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username: `docgen-pm-${backend.name}`, password: 'docgen password 1' },
        headers: { authorization: '' },
      });
      expect(session.statusCode, session.body).toBe(200);
      const headers = { authorization: `Bearer ${session.json().token as string}` };
      const before = (await documentsOf()).length;
      const res = await app.inject({ method: 'POST', url: `/api/document/documents/${letterId}/letter`, headers });
      expect(res.statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/api/document-templates', headers })).statusCode).toBe(403);
      expect((await documentsOf()).length).toBe(before);
    });

    it('says clearly that LibreOffice is missing (503) and attaches nothing', async () => {
      const before = await documentsOf();
      const files = await app.db.query('SELECT count(*)::int AS n FROM file_entity');
      const saved = app.config.sofficePath;
      app.config.sofficePath = '/nonexistent/soffice';
      try {
        const res = await generate('decision', 'en');
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe(
          'Documents cannot be converted to PDF right now: LibreOffice is not installed on the server. Tell the administrator.',
        );
      } finally {
        app.config.sofficePath = saved;
      }
      expect(await documentsOf()).toEqual(before);
      expect((await app.db.query('SELECT count(*)::int AS n FROM file_entity')).rows).toEqual(files.rows);
    });

    it('says clearly that a kind has no template (404) when no version is active', async () => {
      const list = (await app.inject({ method: 'GET', url: '/api/document-templates' })).json().list;
      const protocol = list.find(
        (k: { kind: string; entity: string }) => k.entity === 'correspondence' && k.kind === 'protocol',
      );
      const off = await app.inject({
        method: 'PUT',
        url: `/api/document-templates/${protocol.versions[0].id}`,
        payload: { active: false },
      });
      expect(off.statusCode, off.body).toBe(200);
      const res = await generate('protocol', 'en');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(
        'There is no template for the document “Protocol”: an administrator must upload one',
      );
    });

    it.skipIf(!office)(
      "answers the pharmacy executor's DOCX on the specification's path",
      async () => {
        const created = await app.inject({
          method: 'POST',
          url: '/api/pharm-appeal/create',
          payload: pharmacySample(7, { full: false, minimal: true }),
        });
        expect(created.statusCode, created.body).toBe(200);
        const res = await app.inject({ method: 'GET', url: `/api/pharm/doer/get/docx/file/${created.json().id}` });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toContain('wordprocessingml');
        expect(docxText(res.rawPayload)).toContain('ИЖРОЧИ ХУЛОСАСИ');
      },
      120_000,
    );
  });
}
