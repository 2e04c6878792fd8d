/**
 * Goods rows of an online statistical report (online-report's `industryRows`), numbered from 1:
 * the long list of `npm run bench:form` and of the browser test that saves one right after typing.
 */
export function industryRows(count: number): Array<Record<string, string | number>> {
  return Array.from({ length: count }, (_, i) => ({
    tariffCode: `19059080${String(i % 100).padStart(2, '0')}`,
    productName: `Mahsulot ${i + 1}`,
    capacityTonnes: 1000 + i,
    production: 800 + i,
    domesticSales: 600 + i,
    export: 100,
    yearEndStock: 50,
    amountExclVatExcise: 1_500_000 + i * 1000,
  }));
}
