// @vitest-environment happy-dom
/**
 * "Create document" on a record page: the menu offers only the kinds whose permission the user
 * holds (none: no button), a choice asks the server to make that kind of this record, and the
 * made PDF opens in the preview dialog.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { EntityManifest } from '../../generated/meta.ts';
import { createAbility, rulesFromPermissions } from '../../shared/ability.ts';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import { CreateDocument, kindsFor } from './CreateDocument.tsx';

const manifest = {
  id: 'letter-box',
  base: '/letter-box',
  titleKey: 'x',
  subject: 'Letter',
  documents: {
    kinds: [
      { kind: 'letter', titleKey: 'kinds.letter', permission: 'update Letter' },
      { kind: 'notice', titleKey: 'kinds.notice', permission: 'SIGN Letter' },
      { kind: 'memo', titleKey: 'kinds.memo' },
    ],
  },
} as unknown as EntityManifest;

const abilityOf = (...permissions: string[]) => createAbility(rulesFromPermissions(permissions));

describe('Create document', () => {
  it('offers the kinds the user may make', () => {
    const may = (p: string) => abilityOf('read Letter', 'update Letter').can(...(p.split(' ') as [string, string]));
    expect(kindsFor(manifest, may).map((k) => k.kind)).toEqual(['letter', 'memo']);
    expect(kindsFor({ ...manifest, documents: undefined } as EntityManifest, may)).toEqual([]);
  });

  it('makes the chosen kind of this record and opens its PDF in the preview', async () => {
    const callEndpoint = vi.fn(async () => ({
      id: 1,
      kind: 'letter',
      templateVersion: 1,
      docx: { id: 'd-1', name: 'Letter 5.docx', mime: 'x', size: 1 },
      pdf: { id: 'p-1', name: 'Letter 5.pdf', mime: 'application/pdf', size: 1 },
    }));
    const { user } = renderWithProviders(<CreateDocument manifest={manifest} id={5} />, {
      dataProvider: createFakeDataProvider({ callEndpoint: callEndpoint as never }),
      ability: abilityOf('read Letter', 'update Letter'),
    });
    await user.click(document.querySelector<HTMLButtonElement>('[data-action="create-document"]')!);
    await waitFor(() => expect(document.querySelector('[data-kind="letter"]')).not.toBeNull());
    expect(document.querySelector('[data-kind="notice"]')).toBeNull();
    await user.click(document.querySelector<HTMLElement>('[data-kind="letter"]')!);
    await waitFor(() =>
      expect(callEndpoint).toHaveBeenCalledWith({ method: 'POST', path: '/api/letter-box/documents/5/letter' }),
    );
    await waitFor(() =>
      expect(document.querySelector('[data-dialog="pdf-preview"]')?.textContent).toContain('Letter 5.pdf'),
    );
  });

  it('shows nothing to a user who may make no kind', () => {
    const noMemo = { ...manifest, documents: { kinds: manifest.documents!.kinds.slice(0, 2) } } as EntityManifest;
    renderWithProviders(<CreateDocument manifest={noMemo} id={5} />, { ability: abilityOf('read Letter') });
    expect(document.querySelector('[data-action="create-document"]')).toBeNull();
  });
});
