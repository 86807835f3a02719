import { useApp } from '../../app-context';
import { OVERVIEW_DAYS, loadOverview, type CurrencyMoney, type Rate } from '../../api/overview';
import { loadRoutingOverview, type RoutingOverview } from '../../api/routing';

import { PageHeader } from '../../components/page';
import { Empty, ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { minorDigits, money } from '../../format';

const ratePercent = (rates: Rate[]) => rates.map((rate) => rate.percent);
/** Minor units in major units of their currency (a chart's axis, not an invoice; the server's exponent). */
const major = (values: number[], currency: string) => values.map((value) => value / 10 ** minorDigits(currency));
/** The currencies that get a chart of their own: the most captured first. */
const MONEY_CHARTS = 3;
const MONEY_LABELS: Array<[keyof CurrencyMoney['byDay'], string]> = [
  ['captured', 'Captured'],
  ['refunded', 'Refunded'],
  ['disputed', 'Disputed'],
  ['won_back', 'Won back'],
  ['net', 'Net'],
];

export function OverviewPage() {
  const { clients } = useApp();
  // Chart.js is loaded with the figures (a chunk of its own: the other pages do without it).
  const [state, reload] = useAsync(async () => {
    const [overview, routing, chart] = await Promise.all([
      loadOverview(clients.merchant),
      loadRoutingOverview(clients.merchant),
      import('../../components/chart'),
    ]);
    return { ...overview, routing, ChartFigure: chart.ChartFigure };
  }, []);
  const ChartFigure = state.status === 'ready' ? state.value.ChartFigure : () => null;
  return (
    <>
      <PageHeader title="Overview" />
      {state.status === 'loading' && <Loading what="the overview" />}
      {state.status === 'error' && <ErrorState error={state.error} retry={reload} />}
      {state.status === 'ready' && state.value.payments === 0 && state.value.webhookMessages === 0 && (
        <Empty>No payments in the last {OVERVIEW_DAYS} days. Create one with the API and it appears here.</Empty>
      )}
      {state.status === 'ready' && (state.value.payments > 0 || state.value.webhookMessages > 0) && (
        <>
          <p class="hint">
            The last {OVERVIEW_DAYS} days (UTC): {state.value.payments} payments, {state.value.webhookMessages} webhook messages.
          </p>
          <div class="charts">
            {state.value.money.length === 0 && <ChartFigure title="Money per day (no currency yet)" kind="bar" labels={[]} series={[]} />}
            {state.value.money.slice(0, MONEY_CHARTS).map((currency) => (
              <ChartFigure
                key={currency.currency}
                title={`${currency.currency} per day (net ${money(currency.totals.net, currency.currency)} over the period)`}
                kind="bar"
                labels={state.value.days.map((day) => day.slice(5))}
                series={MONEY_LABELS.map(([figure, label]) => ({ label, values: major(currency.byDay[figure], currency.currency) }))}
              />
            ))}
            <ChartFigure
              title="Payments per day"
              kind="line"
              labels={state.value.days.map((day) => day.slice(5))}
              series={[{ label: 'Payments', values: state.value.countByDay }]}
            />
            <ChartFigure
              title="Authorization success by processor"
              kind="bar"
              percent
              labels={state.value.byProcessor.map((rate) => state.value.routing.nameOf(rate.label))}
              series={[{ label: 'Succeeded', values: ratePercent(state.value.byProcessor) }]}
            />
            <ChartFigure
              title="Success by flow"
              kind="bar"
              percent
              labels={state.value.byFlow.map((rate) => rate.label)}
              series={[{ label: 'Succeeded', values: ratePercent(state.value.byFlow) }]}
            />
            <ChartFigure
              title="Decline reasons"
              kind="bar"
              horizontal
              labels={state.value.declineReasons.map((decline) => decline.reason)}
              series={[{ label: 'Payments', values: state.value.declineReasons.map((decline) => decline.count) }]}
            />
            <ChartFigure
              title="Webhook delivery success"
              kind="bar"
              percent
              horizontal
              labels={state.value.webhooks.map((rate) => rate.label)}
              series={[{ label: 'Delivered', values: ratePercent(state.value.webhooks) }]}
            />
          </div>
          <ProcessorRates routing={state.value.routing} />
        </>
      )}
    </>
  );
}

/** The authorization rate by processor that success-rate routing compares now (GET /routing/stats, its window). */
function ProcessorRates({ routing }: { routing: RoutingOverview }) {
  return (
    <section aria-labelledby="processor-rates-heading">
      <h2 id="processor-rates-heading">Authorization rate by processor, the last {routing.windowMinutes} minutes</h2>
      <p class="hint">
        Each card's first answer at a processor (an unanswered one counts as a failure; a retry after a decline is not counted). Success-rate routing compares
        the recent rate, in which an outcome counts for less the older it is; the window's rate counts them all alike.
      </p>
      {routing.rates.length === 0 ? (
        <Empty>No authorization in the last {routing.windowMinutes} minutes.</Empty>
      ) : (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Table of the authorization rates">
          <table>
            <caption class="visually-hidden">Authorization rate by processor</caption>
            <thead>
              <tr>
                <th scope="col">Processor</th>
                <th scope="col" class="numeric">
                  Recent rate (decides)
                </th>
                <th scope="col" class="numeric">
                  Window rate
                </th>
                <th scope="col" class="numeric">
                  Attempts
                </th>
                <th scope="col" class="numeric">
                  Approved
                </th>
                <th scope="col" class="numeric">
                  Declined
                </th>
                <th scope="col" class="numeric">
                  Unanswered
                </th>
              </tr>
            </thead>
            <tbody>
              {routing.rates.map((rate) => (
                <tr key={rate.processor}>
                  <td>{rate.label}</td>
                  <td class="numeric">
                    <meter min={0} max={100} value={rate.recentPercent ?? 0} aria-label={`${rate.label}: recent authorization rate`} />{' '}
                    {rate.recentPercent === null ? '—' : `${rate.recentPercent.toFixed(1)} %`}
                  </td>
                  <td class="numeric">{rate.percent === null ? '—' : `${rate.percent.toFixed(1)} %`}</td>
                  <td class="numeric">{rate.attempts}</td>
                  <td class="numeric">{rate.approved}</td>
                  <td class="numeric">{rate.declined}</td>
                  <td class="numeric">{rate.errors}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
