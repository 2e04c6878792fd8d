import Chart from 'react-apexcharts/core';
import 'apexcharts/bar';
import 'apexcharts/line';
import 'apexcharts/features/legend';
import 'apexcharts/features/keyboard';
import { CHART_HEIGHT } from './sizes.ts';

/** One series of a chart: its name and a value per category (null where there is none). */
export interface ChartSeries {
  name: string;
  data: Array<number | null>;
}

/** Props of the lazily loaded chart: what the dashboard computed from its panel and data. */
export interface ChartProps {
  kind: 'bar' | 'line';
  categories: string[];
  series: ChartSeries[];
  xTitle: string;
  yTitle: string;
  label: string;
  format: (value: number) => string;
  /** A bar or point clicked (drill-down): its series and category index. */
  onSelect?: ((series: number, category: number) => void) | undefined;
}

/**
 * An apexcharts chart (bar or line), in a chunk of its own that only chart panels load —
 * apexcharts does not grow the first visit's bundle. Only the chart types and features used
 * are registered (react-apexcharts' `/core` build), which keeps the chunk small.
 */
export default function DashboardChart({
  kind,
  categories,
  series,
  xTitle,
  yTitle,
  label,
  format,
  onSelect,
}: ChartProps) {
  return (
    <div role="figure" aria-label={label} data-chart={kind}>
      <Chart
        type={kind}
        height={CHART_HEIGHT}
        series={series}
        options={{
          chart: {
            toolbar: { show: false },
            zoom: { enabled: false },
            animations: { enabled: false },
            fontFamily: 'inherit',
            // A segment leads to the list behind its number, like the numbers of the table view.
            events: onSelect
              ? {
                  dataPointSelection: (_e, _c, o) => {
                    if (o && o.dataPointIndex >= 0) onSelect(o.seriesIndex, o.dataPointIndex);
                  },
                }
              : {},
          },
          xaxis: { categories, title: { text: xTitle }, labels: { rotate: -45, hideOverlappingLabels: true } },
          yaxis: { title: { text: yTitle }, labels: { formatter: format } },
          // Ten distinct colours (the default palette repeats after five, e.g. eight fuel types).
          colors: [
            '#1f77b4',
            '#d62728',
            '#2ca02c',
            '#ff7f0e',
            '#9467bd',
            '#8c564b',
            '#e377c2',
            '#17becf',
            '#7f7f7f',
            '#bcbd22',
          ],
          dataLabels: { enabled: false },
          stroke: { width: kind === 'line' ? 2 : 0 },
          legend: { show: series.length > 1, position: 'bottom' },
          tooltip: { y: { formatter: format } },
          plotOptions: { bar: { columnWidth: '70%' } },
        }}
      />
    </div>
  );
}
