import { useQuery } from '@tanstack/react-query';
import { loadEntity, loadMachine, loadUi } from '../../definitions/client.ts';

/** An entity's definition (schema, ui, grid), loaded once per session. */
export function useEntity(entity: string | undefined) {
  return useQuery({ queryKey: ['definition', entity], queryFn: () => loadEntity(entity!), enabled: Boolean(entity), staleTime: Infinity });
}

/** The form definition a screen uses: the entity's `ui` or the view named in its options. */
export function useUi(entity: string | undefined, view?: string) {
  return useQuery({ queryKey: ['definition', entity, 'ui', view ?? ''], queryFn: () => loadUi(entity!, view), enabled: Boolean(entity), staleTime: Infinity });
}

/** The status machine of an entity, if it has one. */
export function useMachine(workflow: string | undefined) {
  return useQuery({ queryKey: ['machine', workflow ?? ''], queryFn: () => loadMachine(workflow), staleTime: Infinity });
}
