/**
 * The "Views" menu of a list: my saved views of this list screen to pick (filters, sort and
 * columns come back as saved), "Save current view as…" with a name, and a delete button per
 * view. Views are the signed-in user's own (`/api/views/{screen}`); a visitor sees no menu.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Divider,
  Field,
  Input,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { BookmarkMultipleRegular, DeleteRegular } from '@fluentui/react-icons';
import { useDataProvider, useGetViews } from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { queryKeys } from '../../client/query-keys.ts';
import { HttpError, describeFailure } from '../../client/http.ts';
import { VIEW_NAME_MAX, type SavedView, type SavedViewState } from '../../shared/saved-views.ts';

const useStyles = makeStyles({
  surface: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, width: '20rem', maxWidth: '90vw' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  pick: { flexGrow: 1, justifyContent: 'flex-start', minWidth: '0' },
  current: { fontWeight: tokens.fontWeightSemibold },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  none: { color: tokens.colorNeutralForeground3 },
});

export interface SavedViewsProps {
  screen: string;
  /** The id of the view in force, if any. */
  current: number | undefined;
  /** The list as it is arranged now, to save. */
  snapshot(): SavedViewState;
  /** A view was picked (or `undefined`: the one in force was deleted). */
  onApply(view: SavedView | undefined): void;
}

/** The Views button and its panel. */
export function SavedViews({ screen, current, snapshot, onApply }: SavedViewsProps) {
  const styles = useStyles();
  const { t } = useTranslation();
  const dataProvider = useDataProvider();
  const client = useQueryClient();
  const { notifySuccess } = useApi();
  const views = useGetViews(screen);
  const [open, setOpen] = useState(false);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.views(screen) });
  const failure = (e: unknown) =>
    e instanceof HttpError ? describeFailure(e.status, e.body, t) : t('engine.list.loadFailed');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('list.viewNameRequired'));
      return;
    }
    try {
      const view = await dataProvider.saveView(screen, name.trim(), snapshot());
      await refresh();
      notifySuccess('list.viewSaved');
      setNaming(false);
      setName('');
      setError(undefined);
      onApply(view);
      setOpen(false);
    } catch (e) {
      setError(failure(e));
    }
  };
  const remove = async (view: SavedView) => {
    try {
      await dataProvider.deleteView(screen, view.id);
      await refresh();
      notifySuccess('list.viewDeleted');
      if (view.id === current) onApply(undefined);
    } catch (e) {
      setError(failure(e));
    }
  };

  const list = views.data ?? [];
  const active = list.find((v) => v.id === current);
  return (
    <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-end">
      <PopoverTrigger disableButtonEnhancement>
        <Button icon={<BookmarkMultipleRegular />} data-action="views" aria-expanded={open}>
          {active ? `${t('list.views')}: ${active.name}` : t('list.views')}
        </Button>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} data-panel="views" aria-label={t('list.views')}>
        {list.length ? (
          <ul className={styles.list}>
            {list.map((view) => (
              <li key={view.id} className={styles.row}>
                <Button
                  appearance="subtle"
                  className={view.id === current ? `${styles.pick} ${styles.current}` : styles.pick}
                  data-view={view.name}
                  aria-current={view.id === current ? 'true' : undefined}
                  onClick={() => {
                    onApply(view);
                    setOpen(false);
                  }}
                >
                  {view.name}
                </Button>
                <Button
                  appearance="subtle"
                  icon={<DeleteRegular />}
                  data-action="delete-view"
                  aria-label={t('list.deleteView', { name: view.name })}
                  title={t('list.deleteView', { name: view.name })}
                  onClick={() => void remove(view)}
                />
              </li>
            ))}
          </ul>
        ) : (
          <span className={styles.none}>{t('list.noViews')}</span>
        )}
        <Divider />
        {naming ? (
          <form className={styles.form} onSubmit={(e) => void save(e)} noValidate>
            <Field label={t('list.viewName')} required validationMessage={error}>
              <Input
                value={name}
                maxLength={VIEW_NAME_MAX}
                data-input="view-name"
                autoFocus
                onChange={(_, d) => setName(d.value)}
              />
            </Field>
            <div className={styles.actions}>
              <Button type="submit" appearance="primary" data-action="save-view-confirm">
                {t('list.save')}
              </Button>
              <Button onClick={() => setNaming(false)}>{t('list.cancel')}</Button>
            </div>
          </form>
        ) : (
          <Button data-action="save-view" onClick={() => setNaming(true)}>
            {t('list.saveView')}
          </Button>
        )}
      </PopoverSurface>
    </Popover>
  );
}
