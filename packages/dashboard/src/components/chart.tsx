// A chart drawn by Chart.js on a canvas (scripted styles only, so the strict style policy holds), with its
// numbers also given as text for screen readers and for anyone who wants the figures.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

export interface Series {
  label: string;
  values: number[];
}

export interface ChartProps {
  title: string;
  kind: 'bar' | 'line';
  labels: string[];
  series: Series[];
  /** Values are percentages (0–100): the axis stops at 100 and reads "%". */
  percent?: boolean;
  /** Bars lie down: long category names (decline reasons) stay readable. */
  horizontal?: boolean;
}

const COLOURS = ['#2f5bd3', '#1f8a5b', '#c2410c', '#7c3aed', '#0e7490'];

export function ChartFigure({ title, kind, labels, series, percent, horizontal }: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return undefined;
    const valueAxis = {
      beginAtZero: true,
      ...(percent ? { max: 100, ticks: { callback: (value: string | number) => `${value}%` } } : { ticks: { precision: 0 } }),
    };
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels,
        datasets: series.map((one, index) => ({
          label: one.label,
          data: one.values,
          backgroundColor: COLOURS[index % COLOURS.length],
          borderColor: COLOURS[index % COLOURS.length],
          tension: 0.25,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { legend: { display: series.length > 1 } },
        scales: horizontal ? { x: valueAxis } : { y: valueAxis },
      },
    });
    return () => chart.destroy();
  }, [kind, labels.join('\u0000'), JSON.stringify(series), percent, horizontal]);

  const summary = series
    .map((one) => `${one.label}: ${labels.map((label, index) => `${label} ${one.values[index] ?? 0}${percent ? '%' : ''}`).join(', ')}`)
    .join('; ');
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      {labels.length === 0 ? (
        <p class="state state-empty">No data yet.</p>
      ) : (
        <div class="chart-canvas">
          <canvas ref={canvas} role="img" aria-label={`${title}. ${summary}`} />
        </div>
      )}
    </figure>
  );
}
