/**
 * Documentation text (an event's or an error's explanation, a sentence of the API document) that may name
 * processors as examples. Code never names a processor outside its folder
 * (processors/engine-names-no-processor.test.ts); text marked with prose() is read by people, never by
 * code, so that check lets it be, as it lets `description` and `summary` texts of the OpenAPI document be.
 */
export const prose = (text: string): string => text;
