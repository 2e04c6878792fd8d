import { describe, expect, it } from 'vitest';
import type { GridDefinition } from '../../generated/meta.ts';
import {
  applyFilterPatch,
  effectiveSort,
  filterParamNames,
  formatSort,
  parseSort,
  readListState,
  toListParams,
  writeListState,
} from './list-state.ts';

const grid: GridDefinition = {
  columns: [
    { field: '/id', titleKey: 'c.id', sortable: true },
    { field: '/customer/surname', titleKey: 'c.surname', sortable: true },
    { field: '/note', titleKey: 'c.note' },
    { field: '/createdAt', titleKey: 'c.createdAt', sortable: true },
  ],
  defaultSort: [{ field: '/createdAt', desc: true }],
  filters: [
    { name: 'keyword', kind: 'keyword' },
    { name: 'regionId', kind: 'eq', field: '/regionId', reference: 'region' },
    { name: 'districtId', kind: 'eq', field: '/districtId', reference: 'district', parentFilter: 'regionId' },
    { name: 'createdDate', kind: 'dateRange', field: '/createdAt' },
    { name: 'price', kind: 'range', field: '/price' },
  ],
};

describe('sort in the URL', () => {
  it('parses dotted names and pointers, minus for descending, dropping fields the grid does not sort by', () => {
    expect(parseSort('-createdAt,customer.surname,note,/id,-createdAt', grid)).toEqual([
      { field: '/createdAt', desc: true },
      { field: '/customer/surname', desc: false },
      { field: '/id', desc: false },
    ]);
    expect(parseSort(null, grid)).toEqual([]);
  });
  it('writes what it reads', () => {
    const sort = [
      { field: '/customer/surname', desc: true },
      { field: '/id', desc: false },
    ];
    expect(formatSort(sort)).toBe('-customer.surname,id');
    expect(parseSort(formatSort(sort), grid)).toEqual(sort);
  });
  it('falls back to the grid’s default sort', () => {
    expect(effectiveSort([], grid)).toEqual([{ field: '/createdAt', desc: true }]);
  });
});

describe('list state', () => {
  it('names the query parameters of each filter kind', () => {
    expect(filterParamNames(grid.filters[3]!)).toEqual(['createdDate', 'createdDateFrom', 'createdDateTo']);
    expect(filterParamNames(grid.filters[4]!)).toEqual(['priceFrom', 'priceTo']);
    expect(filterParamNames(grid.filters[0]!)).toEqual(['keyword']);
  });
  it('reads filters, sort and a 1-based page, ignoring unknown and empty parameters', () => {
    const state = readListState(
      new URLSearchParams('keyword=abc&regionId=&createdDateFrom=2024-01-01&priceTo=5&page=3&sort=-id&other=1'),
      grid,
    );
    expect(state).toEqual({
      filters: { keyword: 'abc', createdDateFrom: '2024-01-01', priceTo: '5' },
      sort: [{ field: '/id', desc: true }],
      page: 3,
    });
    expect(readListState(new URLSearchParams('page=-2'), grid).page).toBe(1);
    expect(readListState(new URLSearchParams('page=x'), grid).page).toBe(1);
  });
  it('writes state back keeping foreign parameters, leaving out page 1 and the default sort', () => {
    const base = new URLSearchParams('tab=2&keyword=old&page=4');
    const next = writeListState({ filters: { regionId: '5' }, sort: [], page: 1 }, grid, base);
    expect(next.toString()).toBe('tab=2&regionId=5');
    expect(writeListState({ filters: {}, sort: [{ field: '/id', desc: false }], page: 2 }, grid).toString()).toBe(
      'sort=id&page=2',
    );
  });
  it('turns state into list-search parameters: page sent 0-based, sort names dotted', () => {
    expect(
      toListParams(
        { filters: { keyword: 'a' }, sort: [{ field: '/customer/surname', desc: false }], page: 3 },
        50,
        grid,
      ),
    ).toEqual({
      filters: { keyword: 'a' },
      page: 2,
      itemsPerPage: 50,
      sortBy: ['customer.surname'],
      sortDesc: [false],
    });
    expect(toListParams({ filters: {}, sort: [], page: 1 }, 20, grid)).toMatchObject({
      page: 0,
      sortBy: ['createdAt'],
      sortDesc: [true],
    });
  });
});

describe('applyFilterPatch', () => {
  it('sets and removes values', () => {
    expect(applyFilterPatch({ keyword: 'a' }, { keyword: '', regionId: '2' }, grid)).toEqual({ regionId: '2' });
  });
  it('clears a child filter when its parent changes, not when the parent stays', () => {
    expect(applyFilterPatch({ regionId: '1', districtId: '10' }, { regionId: '2' }, grid)).toEqual({ regionId: '2' });
    expect(applyFilterPatch({ regionId: '1', districtId: '10' }, { regionId: '1' }, grid)).toEqual({
      regionId: '1',
      districtId: '10',
    });
    expect(applyFilterPatch({ regionId: '1', districtId: '10' }, { districtId: '11' }, grid)).toEqual({
      regionId: '1',
      districtId: '11',
    });
  });
});
