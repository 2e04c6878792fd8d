// @vitest-environment happy-dom
/**
 * The Comments tab: the empty state, a thread with answers stepped in, plain text (markup shown
 * as written), the author's own edit and delete, a deleted comment keeping its answers, the
 * uploader's limits before anything is sent, and the server's text problem on the box.
 */
import { describe, expect, it } from 'vitest';
import { configure, fireEvent, waitFor, within } from '@testing-library/react';
import { confirmPrompt, createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import type { NewComment, RecordComment } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import type { EntityManifest } from '../../generated/meta.ts';
import { CommentsTab } from './CommentsTab.tsx';

configure({ asyncUtilTimeout: 20_000 });

const manifest = {
  id: 'gizmo',
  base: '/gizmo',
  comments: { replies: true, files: { maxFiles: 2, maxFileBytes: 1024 } },
} as unknown as EntityManifest;

const comment = (id: number, over: Partial<RecordComment> = {}): RecordComment => ({
  id,
  parentId: null,
  authorId: '1',
  authorName: 'Karimov Aziz',
  text: `comment ${id}`,
  createdAt: '2026-03-05T19:30:00.000Z',
  editedAt: null,
  deleted: false,
  mine: false,
  files: [],
  ...over,
});

/** A provider whose thread lives in memory; writes change it as the server would. */
function serverOf(initial: RecordComment[]) {
  let threads = initial;
  const sent: NewComment[] = [];
  const dp = createFakeDataProvider({
    getComments: async () => threads,
    createComment: async (_e, _id, c) => {
      sent.push(c);
      if (c.text.trim() === '')
        throw new HttpError(400, { message: 'x', fieldErrors: { '/text': 'Required field' } }, 'x');
      const made = comment(100 + sent.length, { text: c.text, mine: true, parentId: c.parentId ?? null });
      threads = c.parentId
        ? threads.map((t) => (t.id === c.parentId ? { ...t, replies: [...(t.replies ?? []), made] } : t))
        : [...threads, { ...made, replies: [] }];
      return made;
    },
    updateComment: async (_e, id, text) => {
      threads = threads.map((t) => (t.id === id ? { ...t, text, editedAt: t.createdAt } : t));
      return threads.find((t) => t.id === id)!;
    },
    deleteComment: async (_e, id) => {
      threads = threads.map((t) => (t.id === id ? { ...t, deleted: true, text: '', mine: false } : t));
      return { id };
    },
    commentFileUrl: (_e, id) => `/api/gizmo/comments/file/${id}`,
  });
  return { dp, sent };
}

/** The element of a selector once it is drawn. */
const drawn = <T extends HTMLElement>(selector: string) =>
  waitFor(() => {
    const el = document.querySelector<T>(selector);
    if (!el) throw new Error(`no ${selector}`);
    return el;
  });

describe('CommentsTab', () => {
  it('shows the empty state and sends a first comment; an empty one gets the server’s message on the box', async () => {
    const { dp, sent } = serverOf([]);
    const { user } = renderWithProviders(<CommentsTab entity="gizmo" id={7} manifest={manifest} />, {
      dataProvider: dp,
    });
    await waitFor(() => expect(document.querySelector('[data-region="no-comments"]')).toBeTruthy());
    await user.click(document.querySelector<HTMLElement>('[data-action="comment-send"]')!);
    await waitFor(() => expect(document.body.textContent).toContain('Required field'));
    await user.type(document.querySelector<HTMLElement>('textarea')!, 'Birinchi <i>izoh</i>');
    await user.click(document.querySelector<HTMLElement>('[data-action="comment-send"]')!);
    await waitFor(() => expect(document.querySelector('[data-comment="102"]')).toBeTruthy());
    // Markup is text: shown as typed, no element made of it.
    expect(document.querySelector('[data-comment="102"] p')!.textContent).toBe('Birinchi <i>izoh</i>');
    expect(document.querySelector('[data-comment="102"] i')).toBeNull();
    expect(sent.at(-1)).toMatchObject({ text: 'Birinchi <i>izoh</i>', files: [] });
    expect(document.querySelector('textarea')!.value).toBe('');
  });

  it('steps answers in, lets the author edit and delete, keeps answers under a deleted comment', async () => {
    const { dp, sent } = serverOf([
      {
        ...comment(1, { mine: true, files: [{ id: 'f1', name: 'act.pdf', mime: 'application/pdf', size: 2048 }] }),
        replies: [comment(2, { parentId: 1, authorName: 'Olimova Dilnoza' })],
      },
    ]);
    const { user } = renderWithProviders(<CommentsTab entity="gizmo" id={7} manifest={manifest} />, {
      dataProvider: dp,
    });
    const first = await drawn<HTMLElement>('[data-comment="1"]');
    expect(first.textContent).toContain('Karimov Aziz');
    // The date in Tashkent time (UTC+5).
    expect(first.querySelector('time')!.textContent).toBe('06.03.2026 00:30');
    expect(first.querySelector('a')!.getAttribute('href')).toBe('/api/gizmo/comments/file/f1');
    const answer = first.querySelector<HTMLElement>('ul [data-comment="2"]')!;
    expect(answer).toBeTruthy();
    // Only one's own comment has edit and delete.
    expect(answer.querySelector('[data-action="comment-edit"]')).toBeNull();
    expect(first.querySelectorAll(':scope > div [data-action="comment-edit"]')).toHaveLength(1);

    await user.click(within(answer).getByText('Reply'));
    const box = answer.querySelector<HTMLTextAreaElement>('textarea')!;
    await user.type(box, 'Javob');
    await user.click(answer.querySelector<HTMLElement>('[data-action="comment-send"]')!);
    // An answer to an answer joins the thread of its first comment.
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ text: 'Javob', parentId: 1 }));

    await user.click(first.querySelector<HTMLElement>('[data-action="comment-edit"]')!);
    const edit = first.querySelector<HTMLTextAreaElement>('textarea')!;
    expect(edit.value).toBe('comment 1');
    await user.clear(edit);
    await user.type(edit, 'tuzatildi');
    await user.click(first.querySelector<HTMLElement>('[data-action="comment-send"]')!);
    await waitFor(() => expect(first.querySelector('p')!.textContent).toBe('tuzatildi'));
    expect(first.textContent).toContain('edited');

    await user.click(first.querySelector<HTMLElement>('[data-action="comment-delete"]')!);
    await user.click(
      within(await confirmPrompt())
        .getAllByRole('button')
        .find((b) => b.textContent === 'Delete')!,
    );
    await waitFor(() => expect(document.querySelector('[data-comment="1"]')!.textContent).toContain('Comment deleted'));
    expect(document.querySelector('[data-comment="1"] [data-comment="2"]')).toBeTruthy();
  });

  it('holds chosen files to the uploader’s limits with its messages', async () => {
    const { dp, sent } = serverOf([]);
    const { user } = renderWithProviders(<CommentsTab entity="gizmo" id={7} manifest={manifest} />, {
      dataProvider: dp,
    });
    const input = await drawn<HTMLInputElement>('input[type="file"]');
    const file = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);
    fireEvent.change(input, {
      target: { files: [file('big.pdf', 2048), file('a.png', 10), file('b.png', 10), file('c.png', 10)] },
    });
    await waitFor(() => expect(document.querySelector('[role="alert"]')).toBeTruthy());
    const alert = document.querySelector('[role="alert"]')!.textContent!;
    expect(alert).toContain('big.pdf: The file is too large (at most 1 KB)');
    expect(alert).toContain('Too many files (at most 2)');
    await user.type(document.querySelector<HTMLElement>('textarea')!, 'fayllar');
    await user.click(document.querySelector<HTMLElement>('[data-action="comment-send"]')!);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.files!.map((f) => f.name)).toEqual(['a.png', 'b.png']);
  });
});
