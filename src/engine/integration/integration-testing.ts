/**
 * Fixtures of the integration pages' component tests: a catalogue of two agencies (one in the
 * sandbox with a record, a personal-data and a table method; one not connected), the real
 * DataProvider over a scripted server, and finders by the stable selectors.
 */
import { vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createDataProvider, type IntegrationCatalogue } from '../../client/data-provider.ts';

export const screenOf = (json: unknown) => json as ScreenDefinition;

export const catalogue: IntegrationCatalogue = {
  sandbox: true,
  agencies: [
    {
      id: 'registry',
      title: 'Registry Office',
      status: 'sandbox',
      breaker: 'closed',
      methods: [
        {
          id: 'company',
          title: 'Company card',
          personalData: false,
          params: {
            type: 'object',
            required: ['inn'],
            additionalProperties: false,
            properties: { inn: { type: 'string', format: 'stir', title: 'Tax ID' } },
          },
          result: {
            view: 'record',
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Name' },
                registered: { type: 'string', format: 'date', title: 'Registered' },
                address: { type: 'object', title: 'Address', properties: { city: { type: 'string', title: 'City' } } },
              },
            },
          },
        },
        {
          id: 'person',
          title: 'Person check',
          personalData: true,
          params: {
            type: 'object',
            required: ['pinfl'],
            properties: { pinfl: { type: 'string', format: 'pinfl', title: 'PINFL' } },
          },
          result: {
            view: 'record',
            schema: { type: 'object', properties: { fullName: { type: 'string', title: 'Full name' } } },
          },
        },
        {
          id: 'prices',
          title: 'Prices',
          personalData: false,
          params: { type: 'object', properties: { product: { type: 'string', title: 'Product' } } },
          result: {
            view: 'table',
            rows: '/items',
            schema: {
              type: 'object',
              properties: {
                onDate: { type: 'string', format: 'date', title: 'On date' },
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      region: { type: 'string', title: 'Region' },
                      price: { type: 'number', title: 'Price' },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
    {
      id: 'offline',
      title: 'Offline Agency',
      status: 'notConnected',
      breaker: 'closed',
      methods: [
        {
          id: 'lookup',
          title: 'Lookup',
          personalData: false,
          params: { type: 'object', required: ['code'], properties: { code: { type: 'string', title: 'Code' } } },
          result: { view: 'record', schema: { type: 'object', properties: {} } },
        },
      ],
    },
  ],
};

export type Options = { body?: Record<string, unknown>; query?: Record<string, unknown> };
type Answer = (options: Options) => unknown;

/** The real DataProvider over a scripted server; `calls` holds what each method call sent. */
export function server(answers: Record<string, Answer> = {}) {
  const request = vi.fn(async (method: string, path: string, options: Options = {}) => {
    if (method === 'GET' && path === '/api/integrations') return catalogue;
    const answer = answers[`${method} ${path}`];
    if (!answer) throw new Error(`unexpected ${method} ${path}`);
    return answer(options);
  });
  const dataProvider = createDataProvider({
    request: request as never,
    url: (path, query) => `${path}?${new URLSearchParams(query as Record<string, string>)}`,
    download: () => Promise.reject(new Error('no downloads here')),
  });
  const sent = (path: string) =>
    request.mock.calls.filter(([m, p]) => m === 'POST' && p === path).map(([, , o]) => (o as Options).body);
  return { request, dataProvider, sent };
}

/** The element of `selector` once it shows. */
export const shown = (selector: string) =>
  waitFor(() => {
    const el = document.querySelector<HTMLElement>(selector);
    if (!el) throw new Error(`${selector} is not shown`);
    return el;
  });
export const field = (pointer: string) => document.querySelector<HTMLElement>(`[data-field="${pointer}"]`)!;
export const input = (pointer: string) => field(pointer).querySelector<HTMLInputElement>('input, textarea')!;
export const run = () => document.querySelector<HTMLButtonElement>('[data-action="run-query"]')!;
export const found = {
  found: true,
  cached: false,
  sandbox: true,
  durationMs: 12,
  callId: 1,
};
