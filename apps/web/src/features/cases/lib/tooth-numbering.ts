/** Tooth numbering lives in the contract: the server's printable prescription labels teeth the same way. */
export { formatToothList, toothChartRows, toothLabel, type NumberingSystem } from '@portal/contract';
export { toothDescription } from '../../../lib/tooth-words.ts';
