/** The middle value (the upper of the two middle ones for an even count): the bench's one summary of repeated measurements. */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
