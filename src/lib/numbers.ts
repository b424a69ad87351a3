/** A count as people read it in the add-on's English messages: 100000 → "100,000". */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
