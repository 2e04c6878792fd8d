import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { rememberRecord } from '../../client/recent.ts';
import { isStaff } from '../../client/session.ts';
import { getAtPointer } from '../../shared/pointer.ts';

/**
 * Notes a staff member's visit to a record page once it has loaded (the staff home's "recently
 * opened"), under the record's label (the manifest's `labelField`) as it reads now.
 */
export function useRememberRecord(
  def: EntityDefinition | undefined,
  id: number,
  record: Record<string, unknown> | undefined,
): void {
  const { pathname } = useLocation();
  const labelField = def?.manifest.labelField;
  const label = record && labelField ? String(getAtPointer(record, labelField) ?? '') : '';
  const entity = def?.id;
  const loaded = record !== undefined;
  useEffect(() => {
    if (entity && loaded && isStaff()) rememberRecord({ path: pathname, entity, id, label });
  }, [entity, loaded, pathname, id, label]);
}
