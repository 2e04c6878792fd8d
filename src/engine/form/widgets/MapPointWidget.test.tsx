// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { fieldElement, renderEntityForm } from '../testing.tsx';

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    location: {
      title: 'test.field.location',
      type: 'object',
      required: ['lat', 'lng'],
      properties: {
        lat: { title: 'test.field.lat', type: 'number', minimum: 37, maximum: 46 },
        lng: { title: 'test.field.lng', type: 'number', minimum: 55, maximum: 74 },
      },
    },
  },
};
const uiSchema = { location: { 'ui:widget': 'mapPoint' } };

const box = (width: number, height: number) => ({
  x: 10,
  y: 20,
  left: 10,
  top: 20,
  width,
  height,
  right: 10 + width,
  bottom: 20 + height,
  toJSON: () => ({}),
});

describe('map point widget', () => {
  it('sets the point where the box is clicked and marks it', () => {
    const { data, container } = renderEntityForm({ schema, uiSchema });
    const map = container.querySelector<SVGSVGElement>('[data-map]')!;
    expect(map.querySelector('[data-marker]')).toBeNull();
    map.getBoundingClientRect = () => box(346, 170) as DOMRect;
    // The middle of the box is the middle of the bounding box (lat 41.35, lng 64.55).
    fireEvent.click(map, { clientX: 10 + 173, clientY: 20 + 85 });
    expect(data().location).toEqual({ lat: 41.35, lng: 64.55 });
    expect(map.querySelector('[data-marker]')).not.toBeNull();
  });

  it('edits the point through two number inputs clamped to the schema bounds', async () => {
    const { user, data, container } = renderEntityForm({
      schema,
      uiSchema,
      formData: { location: { lat: 41.3, lng: 69.2 } },
    });
    const field = fieldElement(container, '/location');
    expect(field.querySelector('[data-marker]')).not.toBeNull();
    const lng = within(field).getByLabelText(/Longitude/) as HTMLInputElement;
    expect(lng.value).toBe('69.2');
    await user.clear(lng);
    await user.type(lng, '80');
    await user.tab();
    expect(data().location).toEqual({ lat: 41.3, lng: 74 });
    expect(screen.getByText('Location on the map')).toBeTruthy();
  });
});
