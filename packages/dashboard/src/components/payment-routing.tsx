import { declineText, type NameOf, type PaymentRouting } from '../api/routing';
import { Badge } from './page';

const words = (value: string) => value.replace(/_/g, ' ');

/** Each authorization attempt of a payment and why it went where it went: the decision for each card, then every attempt with its decline and what followed. */
export function RoutingAttempts({ routing, nameOf }: { routing: PaymentRouting; nameOf: NameOf }) {
  const named = (text: string) => routing.attempts.reduce((shown, attempt) => shown.split(attempt.processor).join(nameOf(attempt.processor)), text);
  return (
    <section aria-labelledby="routing-heading">
      <h2 id="routing-heading">Authorization attempts</h2>
      {routing.decisions.map((decision, index) => (
        <div class="routing-decision" key={`${decision.decided_at ?? index}`}>
          <p>
            <strong>{routing.decisions.length > 1 && decision.card_attempt ? `Card ${decision.card_attempt}: ` : ''}</strong>
            Strategy {words(routing.strategy)}, <Badge value={decision.reason} /> — {named(decision.detail)}
          </p>
          {decision.rates && decision.rates.length > 0 && (
            <p class="hint">
              Compared ({decision.segment_level ? words(decision.segment_level) : 'segment'}):{' '}
              {decision.rates
                .map(
                  (rate) =>
                    `${nameOf(rate.processor)} ${rate.authorization_rate === null ? 'no attempts' : `${Math.round(rate.authorization_rate * 1000) / 10} % of ${rate.attempts}`}`,
                )
                .join(' · ')}
            </p>
          )}
        </div>
      ))}
      <div class="table-scroll" tabIndex={0} role="region" aria-label="Table of the authorization attempts">
        <table>
          <caption class="visually-hidden">Authorization attempts</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Processor</th>
              <th scope="col">Why there</th>
              <th scope="col">Result</th>
              <th scope="col">Decline</th>
              <th scope="col">Then</th>
            </tr>
          </thead>
          <tbody>
            {routing.attempts.map((attempt, index) => (
              <tr key={index}>
                <td>
                  {index + 1}
                  {attempt.card_attempt ? <span class="hint"> (card {attempt.card_attempt})</span> : null}
                </td>
                <td>
                  {nameOf(attempt.processor)}
                  {attempt.three_ds ? <span class="hint"> with 3-D Secure</span> : null}
                </td>
                <td>{named(attempt.reason)}</td>
                <td>
                  <Badge value={attempt.result} />
                </td>
                <td>{attempt.decline ? declineText(attempt.decline) : '—'}</td>
                <td>{attempt.then ? `${words(attempt.then.action)}: ${named(attempt.then.reason)}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
