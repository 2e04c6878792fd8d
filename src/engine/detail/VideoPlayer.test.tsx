// @vitest-environment happy-dom
/**
 * A record's video file (a project lesson) plays on its page: the file list offers a play
 * button for a video (not for other files), and pressing it puts a playable <video> there.
 */
import { describe, expect, it } from 'vitest';
import { configure, waitFor } from '@testing-library/react';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import { FileLinks } from './ReadValue.tsx';

configure({ asyncUtilTimeout: 20_000 });

describe('VideoPlayer in the file links', () => {
  it('offers to play a video and plays it on the page', async () => {
    const dp = createFakeDataProvider({
      getFileInfo: async () => [
        { id: 'v1', name: 'lesson.mp4', mime: 'video/mp4', size: 199 * 1024 * 1024, sha256: '' },
        { id: 'd1', name: 'notes.pdf', mime: 'application/pdf', size: 2048, sha256: '' },
      ],
      fileUrl: (id) => `/api/file-entity/get/${id}`,
    });
    const { user } = renderWithProviders(<FileLinks ids={['v1', 'd1']} />, { dataProvider: dp });
    const play = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-action="play-video"]');
      if (!el) throw new Error('no play button');
      return el;
    });
    expect(document.querySelectorAll('[data-action="play-video"]')).toHaveLength(1);
    expect(play.closest('[data-file]')!.getAttribute('data-file')).toBe('v1');
    await user.click(play);
    const video = document.querySelector<HTMLVideoElement>('video[data-video="lesson.mp4"]')!;
    expect(video.getAttribute('src')).toBe('/api/file-entity/get/v1');
    expect(video.hasAttribute('controls')).toBe(true);
  });
});
