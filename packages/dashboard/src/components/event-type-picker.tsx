// Which events a webhook endpoint receives: every type, or the ones ticked (grouped by resource). The types
// come from the API's OpenAPI document (api/event-types.ts).
import { groupedEventTypes, loadEventTypes } from '../api/event-types';
import { ErrorState, Loading } from './states';
import { useAsync } from './use-async';

export interface EventTypePickerProps {
  /** The chosen types; empty: every type (the API's meaning of an empty list). */
  value: string[];
  onChange: (types: string[]) => void;
  /** Field ids stay unique when two pickers are on one page. */
  idPrefix: string;
}

export function EventTypePicker({ value, onChange, idPrefix }: EventTypePickerProps) {
  const [state, reload] = useAsync(loadEventTypes, []);
  const every = value.length === 0;
  if (state.status === 'loading') return <Loading what="the event types" />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={reload} />;
  const toggle = (type: string, checked: boolean) => onChange(checked ? [...value, type] : value.filter((chosen) => chosen !== type));
  return (
    <fieldset class="event-types">
      <legend>Events to send</legend>
      <div class="field field-check">
        <input id={`${idPrefix}-every`} type="radio" name={`${idPrefix}-scope`} checked={every} onChange={() => onChange([])} />
        <label for={`${idPrefix}-every`}>Every event type</label>
      </div>
      <div class="field field-check">
        <input
          id={`${idPrefix}-chosen`}
          type="radio"
          name={`${idPrefix}-scope`}
          checked={!every}
          onChange={() => every && onChange([state.value[0] ?? 'payment.captured'])}
        />
        <label for={`${idPrefix}-chosen`}>Only these:</label>
      </div>
      {!every && (
        <div class="event-type-groups">
          {groupedEventTypes(state.value).map(({ group, types }) => (
            <fieldset key={group} class="event-type-group">
              <legend>{group}</legend>
              {types.map((type) => {
                const id = `${idPrefix}-${type.replace(/\W+/g, '-')}`;
                return (
                  <div class="field field-check" key={type}>
                    <input
                      id={id}
                      type="checkbox"
                      checked={value.includes(type)}
                      onChange={(event) => toggle(type, (event.target as HTMLInputElement).checked)}
                    />
                    <label for={id}>{type}</label>
                  </div>
                );
              })}
            </fieldset>
          ))}
        </div>
      )}
    </fieldset>
  );
}
