// @vitest-environment happy-dom
/**
 * The tab list without Tabster's arrow-navigation group: no focus sentinels, only the selected
 * tab in the Tab order, the arrow keys (circular), Home and End move focus, a click or Enter
 * selects — the keyboard of the WAI-ARIA tabs pattern that Fluent's own TabList has.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { nextTabIndex, Tab, TabList } from './TabList.tsx';

function Tabs({ vertical = false }: { vertical?: boolean }) {
  const [selected, setSelected] = useState('b');
  return (
    <FluentProvider theme={webLightTheme}>
      <TabList
        selectedValue={selected}
        onTabSelect={(_e, d) => setSelected(String(d.value))}
        vertical={vertical}
        aria-label="Tabs"
      >
        {['a', 'b', 'c'].map((v) => (
          <Tab key={v} value={v} data-tab={v}>
            {v.toUpperCase()}
          </Tab>
        ))}
      </TabList>
      <output>{selected}</output>
    </FluentProvider>
  );
}

const tab = (v: string) => document.querySelector<HTMLButtonElement>(`[data-tab="${v}"]`)!;

describe('TabList (roving tab index)', () => {
  afterEach(cleanup);

  it('leaves no focus sentinel and keeps only the selected tab in the Tab order', () => {
    render(<Tabs />);
    expect(document.querySelectorAll('[data-tabster-dummy], [aria-hidden="true"][tabindex="0"]')).toHaveLength(0);
    expect(screen.getByRole('tablist').hasAttribute('data-tabster')).toBe(false);
    expect(['a', 'b', 'c'].map((v) => tab(v).tabIndex)).toEqual([-1, 0, -1]);
  });

  it('moves focus with the arrow keys (circular), Home and End, and selects on click', () => {
    render(<Tabs />);
    tab('b').focus();
    fireEvent.keyDown(tab('b'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('c'));
    fireEvent.keyDown(tab('c'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('a'));
    fireEvent.keyDown(tab('a'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('c'));
    fireEvent.keyDown(tab('c'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('a'));
    fireEvent.keyDown(tab('a'), { key: 'End' });
    expect(document.activeElement).toBe(tab('c'));
    // Moving focus does not select (Fluent's default); a click (Enter or Space on a button) does.
    expect(screen.getByRole('status').textContent).toBe('b');
    fireEvent.click(tab('c'));
    expect(screen.getByRole('status').textContent).toBe('c');
    expect(['a', 'b', 'c'].map((v) => tab(v).tabIndex)).toEqual([-1, -1, 0]);
  });

  it('uses the up and down arrows when vertical', () => {
    render(<Tabs vertical />);
    tab('b').focus();
    fireEvent.keyDown(tab('b'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('b'));
    fireEvent.keyDown(tab('b'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(tab('c'));
    fireEvent.keyDown(tab('c'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(tab('b'));
  });

  it('computes the next tab', () => {
    expect(nextTabIndex('ArrowRight', 2, 3, false)).toBe(0);
    expect(nextTabIndex('ArrowLeft', 0, 3, false)).toBe(2);
    expect(nextTabIndex('ArrowDown', 0, 3, false)).toBeUndefined();
    expect(nextTabIndex('Enter', 0, 3, false)).toBeUndefined();
  });
});
