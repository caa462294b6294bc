import { contextBridge, ipcRenderer } from 'electron';

/**
 * The whole bridge between the page and the app: its start-up config (API key, API base, mode), the
 * kiosk's staff exit, and the names of this computer's printers (for the `printers` setting). Nothing else of Node or Electron reaches the renderer.
 */
contextBridge.exposeInMainWorld('kassa', {
  config: (): Promise<unknown> => ipcRenderer.invoke('kassa:config'),
  staffExit: (pin: string): Promise<boolean> => ipcRenderer.invoke('kassa:staff-exit', String(pin)),
  systemPrinters: (): Promise<unknown> => ipcRenderer.invoke('kassa:system-printers'),
  onStaffExitRequested(listener: () => void): () => void {
    const handler = () => listener();
    ipcRenderer.on('kassa:staff-exit-requested', handler);
    return () => ipcRenderer.removeListener('kassa:staff-exit-requested', handler);
  },
});
