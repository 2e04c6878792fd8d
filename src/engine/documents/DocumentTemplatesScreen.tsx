import {
  Body1,
  Button,
  Caption1,
  Card,
  Link,
  makeStyles,
  Subtitle1,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../types.ts';
import { useApi, useOptionalApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { formatDateTime } from '../../shared/format.ts';
import { Heading, Paragraph } from '../common/primitives.tsx';
import { ScreenState } from '../common/ScreenState.tsx';
import { useDownloadClick } from '../common/useDownload.ts';
import { useLockedAction } from '../common/useLockedAction.ts';

/** One template version as `GET /api/document-templates` lists it. */
interface TemplateVersion {
  id: number;
  version: number;
  name: string;
  size: number;
  uploadedBy: string | null;
  uploadedAt: string;
  active: boolean;
}

/** One declared kind with its versions, newest first. */
interface TemplateKind {
  entity: string;
  entityTitleKey: string;
  kind: string;
  titleKey: string;
  versions: TemplateVersion[];
}

const KEY = ['document-templates'] as const;

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 380px), 1fr))',
    alignItems: 'start',
  },
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, marginTop: tokens.spacingVerticalL },
  head: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  versions: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  version: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalM },
  quiet: { color: tokens.colorNeutralForeground3 },
  hidden: { display: 'none' },
});

/**
 * The document templates (screen kind `document-templates`, admins): every kind the manifests'
 * `documents` declare, by entity, each with its versions — the file (downloadable, older ones
 * too), when and by whom it was uploaded, and whether generation may use it — and an upload of
 * a new version (a .docx; the server refuses a non-DOCX or a broken tag, naming the tag).
 */
export default function DocumentTemplatesScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const http = useOptionalApi()?.http;
  const { reportError, notifySuccess } = useApi();
  const queryClient = useQueryClient();
  const onDownload = useDownloadClick();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const kinds = useQuery({
    queryKey: KEY,
    queryFn: () => dp.callEndpoint<{ list: TemplateKind[] }>({ method: 'GET', path: '/api/document-templates' }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const { run: upload, locked } = useLockedAction(async (k: TemplateKind, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      await http!.request('POST', `/api/document-templates/${k.entity}/${k.kind}`, { form });
      notifySuccess('docgen.templates.uploaded');
      await refresh();
    } catch (error) {
      reportError(error);
    }
  });
  const setActive = async (v: TemplateVersion, active: boolean) => {
    try {
      await http!.request('PUT', `/api/document-templates/${v.id}`, { body: { active } });
      await refresh();
    } catch (error) {
      reportError(error);
    }
  };

  if (!kinds.data) return <ScreenState screenId={screen.id} error={kinds.error} onRetry={() => void kinds.refetch()} />;
  const entities = [...new Set(kinds.data.list.map((k) => k.entity))];
  return (
    <div data-screen={screen.id}>
      <Heading>{t(screen.titleKey)}</Heading>
      <Paragraph>{t('docgen.templates.intro')}</Paragraph>
      {entities.map((entity) => {
        const group = kinds.data.list.filter((k) => k.entity === entity);
        return (
          <section key={entity} className={s.group} data-entity={entity}>
            <Subtitle1 as="h2">{t(group[0]!.entityTitleKey)}</Subtitle1>
            <div className={s.grid}>
              {group.map((k) => {
                const key = `${k.entity}/${k.kind}`;
                return (
                  <Card key={key} data-kind={k.kind}>
                    <div className={s.head}>
                      <Subtitle2 as="h3">{t(k.titleKey)}</Subtitle2>
                      <Button
                        size="small"
                        icon={<ArrowUploadRegular />}
                        disabled={locked}
                        data-action="upload-template"
                        onClick={() => inputs.current.get(key)?.click()}
                      >
                        {t('docgen.templates.upload')}
                      </Button>
                      <input
                        ref={(el) => {
                          if (el) inputs.current.set(key, el);
                        }}
                        className={s.hidden}
                        type="file"
                        accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                        aria-label={t('docgen.templates.upload')}
                        onChange={(e) => {
                          const file = e.currentTarget.files?.[0];
                          e.currentTarget.value = '';
                          if (file) void upload(k, file);
                        }}
                      />
                    </div>
                    {k.versions.length === 0 && <Body1>{t('docgen.templates.none')}</Body1>}
                    <ul className={s.versions}>
                      {k.versions.map((v) => (
                        <li key={v.id} className={s.version} data-version={v.version}>
                          <Body1>{t('docgen.version', { version: v.version })}</Body1>
                          <Link
                            href={http?.url(`/api/document-templates/file/${v.id}`) ?? '#'}
                            download={v.name}
                            onClick={onDownload}
                          >
                            {v.name}
                          </Link>
                          <Caption1 className={s.quiet}>
                            {formatDateTime(v.uploadedAt)}
                            {v.uploadedBy === 'system' ? ` · ${t('docgen.templates.seeded')}` : ''}
                          </Caption1>
                          <Switch
                            checked={v.active}
                            label={t('docgen.templates.active')}
                            onChange={(_e, d) => void setActive(v, d.checked)}
                          />
                        </li>
                      ))}
                    </ul>
                  </Card>
                );
              })}
            </div>
          </section>
        );
      })}
    </div>
  );
}
