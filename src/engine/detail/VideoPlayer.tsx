import { Button, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { PlayRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOptionalApi } from '../../client/react/context.tsx';

const useStyles = makeStyles({
  video: { display: 'block', width: '100%', maxWidth: '720px', maxHeight: '70vh', marginTop: tokens.spacingVerticalXS },
});

/**
 * Plays a stored video on the page. A `<video src>` carries no bearer token, so a signed-in
 * user's press fetches the file with the session, as a download link does (useDownloadClick),
 * and plays it from memory; without a session (a visitor, a test without a client) the
 * video reads the URL itself. Nothing is fetched until the user asks to play.
 */
export function VideoPlayer({ url, name }: { url: string; name: string }) {
  const s = useStyles();
  const { t } = useTranslation();
  const api = useOptionalApi();
  const [src, setSrc] = useState<string>();
  const [loading, setLoading] = useState(false);
  useEffect(() => () => (src?.startsWith('blob:') ? URL.revokeObjectURL(src) : undefined), [src]);
  const play = () => {
    if (!api?.http) return setSrc(url);
    setLoading(true);
    api.http
      .download(url)
      .then(
        (file) => setSrc(URL.createObjectURL(file.blob)),
        (error: unknown) => api.reportError(error),
      )
      .finally(() => setLoading(false));
  };
  if (src)
    return (
      // biome-ignore lint/a11y/useMediaCaption: lessons are uploaded by staff without caption tracks
      <video className={s.video} src={src} controls autoPlay data-video={name} aria-label={name} />
    );
  return loading ? (
    <Spinner size="tiny" label={t('comments.videoLoading')} />
  ) : (
    <Button size="small" icon={<PlayRegular />} onClick={play} data-action="play-video">
      {t('comments.play', { name })}
    </Button>
  );
}
