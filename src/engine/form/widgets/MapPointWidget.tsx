import type { MouseEvent } from 'react';
import { Field, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import { pointAt, positionOf, type GeoPoint } from '../geo.ts';
import { translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';
import { NumberWidget } from './TextWidgets.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // Fluent inputs have a minimum width; two side by side must still fit a 360 px phone.
  inputs: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    maxWidth: '480px',
    '& .fui-Input': { minWidth: 0 },
  },
  map: {
    width: '100%',
    maxWidth: '480px',
    height: 'auto',
    cursor: 'crosshair',
    backgroundColor: tokens.colorNeutralBackground3,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  readOnlyMap: { cursor: 'default' },
});

// Longitude degrees are about 0.75 of latitude degrees at Uzbekistan's latitude: 306 × 200 keeps the shape.
const WIDTH = 306;
const HEIGHT = 200;

const sub = (schema: RJSFSchema, name: 'lat' | 'lng'): RJSFSchema => {
  const s = schema.properties?.[name];
  return s && typeof s === 'object' ? (s as RJSFSchema) : { type: 'number' };
};

/**
 * A point {lat, lng}: two number inputs (clamped to the schema's bounds) and a plain box over
 * Uzbekistan's bounding box where a click sets the point and a marker shows it. No map tiles:
 * the portal must work without internet.
 */
export function MapPointWidget(props: WidgetProps) {
  const { id, value, schema, readonly, disabled, onChange } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const point = (value && typeof value === 'object' ? value : {}) as Partial<GeoPoint>;
  const set = (patch: Partial<GeoPoint>) => onChange({ ...point, ...patch });
  const at = positionOf(point);

  const click = (e: MouseEvent<SVGSVGElement>) => {
    if (readonly || disabled) return;
    const box = e.currentTarget.getBoundingClientRect();
    if (!box.width || !box.height) return;
    onChange(pointAt(e.clientX - box.left, e.clientY - box.top, box.width, box.height));
  };

  const input = (name: 'lat' | 'lng') => {
    const schemaOf = sub(schema, name);
    return (
      <Field
        label={{
          children: translateTitle(i18n, schemaOf.title ?? `engine.form.map.${name}`),
          htmlFor: `${id}_${name}`,
        }}
      >
        <NumberWidget
          {...props}
          id={`${id}_${name}`}
          htmlName={`${id}_${name}`}
          schema={schemaOf}
          value={point[name]}
          onChange={(v: number | undefined) => set({ [name]: v })}
        />
      </Field>
    );
  };

  return (
    <div className={styles.root} id={id}>
      <div className={styles.inputs}>
        {input('lat')}
        {input('lng')}
      </div>
      <svg
        className={mergeClasses(styles.map, (readonly || disabled) && styles.readOnlyMap)}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={i18n.t('engine.form.map.choose')}
        data-map
        onClick={click}
      >
        {Array.from({ length: 5 }, (_, i) => (
          <line
            key={`v${i}`}
            x1={((i + 1) * WIDTH) / 6}
            x2={((i + 1) * WIDTH) / 6}
            y1={0}
            y2={HEIGHT}
            stroke="currentColor"
            strokeOpacity={0.12}
          />
        ))}
        {Array.from({ length: 3 }, (_, i) => (
          <line
            key={`h${i}`}
            y1={((i + 1) * HEIGHT) / 4}
            y2={((i + 1) * HEIGHT) / 4}
            x1={0}
            x2={WIDTH}
            stroke="currentColor"
            strokeOpacity={0.12}
          />
        ))}
        {at && (
          <circle
            data-marker
            cx={at.x * WIDTH}
            cy={at.y * HEIGHT}
            r={6}
            fill={tokens.colorPaletteRedBackground3}
            stroke="white"
            strokeWidth={2}
          />
        )}
      </svg>
    </div>
  );
}
