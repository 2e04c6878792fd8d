import {
  renderTabList_unstable,
  Tab as FluentTab,
  useTabList_unstable,
  useTabListContext_unstable,
  useTabListContextValues_unstable,
  useTabListStyles_unstable,
  type TabListProps,
  type TabProps,
} from '@fluentui/react-components';
import { forwardRef, type KeyboardEvent } from 'react';

/** The keys that move focus along a tab list, by orientation: previous, next. */
const ARROWS = { horizontal: ['ArrowLeft', 'ArrowRight'], vertical: ['ArrowUp', 'ArrowDown'] } as const;

/**
 * The tab to focus for a key pressed on tab `from` of `count` (circular, Home and End), or
 * undefined when the key is not one that moves along the list.
 * @example nextTabIndex('ArrowRight', 2, 3, false) // 0
 */
export function nextTabIndex(key: string, from: number, count: number, vertical: boolean): number | undefined {
  const [previous, next] = ARROWS[vertical ? 'vertical' : 'horizontal'];
  if (key === next) return (from + 1) % count;
  if (key === previous) return (from - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

/**
 * Fluent's TabList with a roving tab index of its own instead of Tabster's arrow-navigation
 * group. Fluent builds the group with focus sentinels — `aria-hidden` elements with
 * `tabindex=0` around the tabs, which every accessibility checker (Lighthouse's
 * `aria-hidden-focus`) reports — because its Tabster instance does not handle the Tab key
 * itself. Here the keyboard works as the WAI-ARIA tabs pattern says, as Fluent's does: only
 * the selected tab is in the Tab order, the arrow keys (circular), Home and End move focus
 * along the list, Enter or Space selects. Looks and props are Fluent's.
 */
export const TabList = forwardRef<HTMLDivElement, TabListProps>((props, ref) => {
  const state = useTabList_unstable(props, ref);
  // The arrow-navigation group's attribute is what makes Tabster insert its sentinels.
  const { 'data-tabster': _group, ...root } = state.root as typeof state.root & { 'data-tabster'?: string };
  const own = root.onKeyDown;
  state.root = {
    ...root,
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      own?.(event);
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const tabs = [
        ...event.currentTarget.querySelectorAll<HTMLElement>(
          '[role="tab"]:not([disabled]):not([aria-disabled="true"])',
        ),
      ];
      const from = tabs.indexOf(document.activeElement as HTMLElement);
      if (from < 0) return;
      const to = nextTabIndex(event.key, from, tabs.length, state.vertical);
      if (to === undefined) return;
      event.preventDefault();
      tabs[to]!.focus();
    },
  };
  const contextValues = useTabListContextValues_unstable(state);
  useTabListStyles_unstable(state);
  return renderTabList_unstable(state, contextValues);
});
TabList.displayName = 'TabList';

/**
 * Fluent's Tab, in the Tab order only when selected (or when its list has no selection), for
 * the roving tab index of {@link TabList}.
 */
export const Tab = forwardRef<HTMLButtonElement, TabProps>((props, ref) => {
  const selected = useTabListContext_unstable((ctx) => ctx.selectedValue);
  return <FluentTab {...props} ref={ref} tabIndex={selected === undefined || selected === props.value ? 0 : -1} />;
});
Tab.displayName = 'Tab';
