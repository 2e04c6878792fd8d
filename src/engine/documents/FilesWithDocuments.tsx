import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import type { EntityManifest } from '../../generated/meta.ts';
import { GeneratedDocuments } from './GeneratedDocuments.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXL },
});

/** The files tab of a record whose entity makes documents: the documents made, then the field files (`children`). */
export function FilesWithDocuments({
  manifest,
  id,
  children,
}: {
  manifest: EntityManifest;
  id: number;
  children: ReactNode;
}) {
  const s = useStyles();
  if (!manifest.documents) return <>{children}</>;
  return (
    <div className={s.root}>
      <GeneratedDocuments manifest={manifest} id={id} />
      {children}
    </div>
  );
}
