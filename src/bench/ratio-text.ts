/**
 * A speedup as the bench prints it (table and chart): two decimals below 2×, so a ratio just under
 * 1× (C++'s 0.97×, say) does not read as 1.0×, the target it misses; one decimal above.
 */
export const ratioText = (ratio: number): string => `${ratio < 2 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
