/** The floor of the list route: the shell with an AG Grid of the one module every grid needs (the client-side row model). */
import { AgGridReact } from 'ag-grid-react';
import { ClientSideRowModelModule } from 'ag-grid-community';
import { mountShell } from './shell.tsx';

mountShell(
  <AgGridReact modules={[ClientSideRowModelModule]} rowData={[{ name: 'A' }]} columnDefs={[{ field: 'name' }]} />,
);
