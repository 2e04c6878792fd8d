/**
 * What the form's templates and widgets share beyond rjsf's props: the form context
 * (entity, data provider, locale, a way to set another field), the path of the field being
 * rendered, the data of the object around it, and when a field's errors may be shown.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { FieldPathList, Registry } from '@rjsf/utils';
import type { DataProvider } from '../../client/data-provider.ts';
import type { Locale } from '../../shared/locales.ts';
import { isWithin } from './pointer.ts';

/** rjsf's `formContext` of an EntityForm. */
export interface EntityFormContext {
  /** Entity id, for uploads and lookups that need it. */
  entity: string;
  /** The stored record being edited: uploads are bound to it (its edit rules decide); undefined for a new one. */
  recordId?: number;
  dataProvider: DataProvider;
  locale: Locale;
  /** Sets any field of the form (a STIR lookup fills its siblings with it). */
  setFieldValue(path: FieldPathList, value: unknown): void;
  /** Top-level pointers to render (a wizard step); undefined = all. */
  fields?: readonly string[];
  /**
   * Values known around the form but not edited in it, by name: a flow's earlier steps, the
   * record a dialog acts on. Widgets may read them (the password meter: the username).
   */
  outside?: Readonly<Record<string, unknown>>;
}

/** The EntityForm context of a template or widget. */
export const formContextOf = (registry: Registry): EntityFormContext => registry.formContext as EntityFormContext;

/** The rjsf path of the field being rendered, provided by the field template. */
export const FieldPathContext = createContext<FieldPathList>([]);

/** The path of the field a widget renders. */
export const useFieldPath = (): FieldPathList => useContext(FieldPathContext);

/**
 * The object around a field: its path and its current data (for siblings such as a region).
 * A store rather than a context value: a new value for every keystroke would make React
 * search the whole subtree for consumers (expensive with hundreds of rows); subscribers
 * re-render only when the sibling they read changes.
 */
export interface ParentObject {
  path(): FieldPathList;
  data(): Record<string, unknown> | undefined;
  subscribe(listener: () => void): () => void;
}

/**
 * The parent-object store an object template keeps. The template records its data while it
 * renders, so children rendering in the same pass (a region and its district filled together)
 * read the new data at once; `notify` then wakes the subscribers that did not re-render.
 */
export interface ParentObjectStore extends ParentObject {
  record(path: FieldPathList, data: Record<string, unknown> | undefined): void;
  notify(): void;
}

/** Creates the store of one object template. */
export function createParentObjectStore(
  path: FieldPathList,
  data: Record<string, unknown> | undefined,
): ParentObjectStore {
  let current = { path, data };
  let notified = data;
  const listeners = new Set<() => void>();
  return {
    path: () => current.path,
    data: () => current.data,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    record(nextPath, nextData) {
      current = { path: nextPath, data: nextData };
    },
    notify() {
      if (notified === current.data) return;
      notified = current.data;
      listeners.forEach((l) => l());
    },
  };
}

const noParent = createParentObjectStore([], undefined);
/** The object template around a field, as a store. */
export const ParentObjectContext = createContext<ParentObject>(noParent);

/** The object whose property the current widget edits. */
export const useParentObject = (): ParentObject => useContext(ParentObjectContext);

/** The current value of a sibling field (re-renders only when that value changes). */
export function useSiblingValue(name: string | undefined): unknown {
  const parent = useParentObject();
  const read = () => (name ? parent.data()?.[name] : undefined);
  // The same answer on a server (the prerender) as in the browser: hydration then finds nothing
  // to change, instead of rendering every such field again at once after it.
  return useSyncExternalStore(parent.subscribe, read, read);
}

/**
 * When a field's errors are shown (spec §5): optional fields after they lose focus (passive),
 * required ones as soon as they change (the template tracks that), everything in a scope once
 * a submit or a wizard step asks, and fields with a server error at once.
 */
export interface ErrorVisibility {
  /** The field lost focus. */
  touch(pointer: string): void;
  /** Show the errors of these fields and of everything inside them (`''` = the whole form). */
  reveal(pointers: readonly string[]): void;
  /** Forget everything (a new record). */
  reset(): void;
  isVisible(pointer: string): boolean;
  subscribe(listener: () => void): () => void;
}

/** Creates the error-visibility store of one form. */
export function createErrorVisibility(): ErrorVisibility {
  const touched = new Set<string>();
  const revealed = new Set<string>();
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  return {
    touch(pointer) {
      if (touched.has(pointer)) return;
      touched.add(pointer);
      emit();
    },
    reveal(pointers) {
      const before = revealed.size;
      pointers.forEach((p) => revealed.add(p));
      if (revealed.size !== before) emit();
    },
    reset() {
      touched.clear();
      revealed.clear();
      emit();
    },
    isVisible(pointer) {
      if (touched.has(pointer)) return true;
      for (const scope of revealed) if (isWithin(pointer, scope)) return true;
      return false;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The error-visibility store of the EntityForm around (none: every error shows). */
export const ErrorVisibilityContext = createContext<ErrorVisibility | null>(null);

/**
 * Errors the server reported per field (a 400, a uniqueness check), by JSON pointer. Fields
 * read them directly: rjsf merges its `extraErrors` only when it validates, and these can
 * arrive between two changes.
 */
export const ServerErrorsContext = createContext<Readonly<Record<string, string>>>({});

/** Whether the errors of the field at `pointer` may be shown; every field shows them outside an EntityForm. */
export function useErrorsRevealed(pointer: string): boolean {
  const store = useContext(ErrorVisibilityContext);
  const read = () => (store ? store.isVisible(pointer) : true);
  // As in useSiblingValue: a prerendered form's fields hydrate without a second render.
  return useSyncExternalStore(store?.subscribe ?? noopSubscribe, read, read);
}

const noopSubscribe = () => () => undefined;
