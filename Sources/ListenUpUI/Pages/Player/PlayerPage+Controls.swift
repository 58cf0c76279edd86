import CAdwaita
import GtkBridge
import ListenUpCore

/// What the player's controls do: each sends the model an intent. The
/// speed and sleep timer popovers' buttons, whose texts carry numbers, are
/// made here, into the template's boxes.
extension PlayerPage {
    /// Transport, volume, the seek bar, the chapters and Try Again.
    func connectTransport() {
        let model = model
        for (button, intent) in [(playButton, PlayerModel.Intent.togglePlayPause), (backButton, .skipBack), (forwardButton, .skipForward),
                                 (previousButton, .previousChapter), (nextButton, .nextChapter)] {
            connections.append(button.connect(.clicked) { [weak model] in model?.send(intent) })
        }
        connections.append(volume.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            self.model.send(.volume(self.volume.value))
        })
        // Dragging seeks once the thumb rests (not on every pixel).
        connections.append(seek.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            let target = (self.model.chapter?.start ?? 0) + Int64(self.seek.value)
            self.pendingSeek?.cancel()
            self.pendingSeek = Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(120))
                guard !Task.isCancelled else { return }
                self?.model.send(.seek(target))
            }
        })
        connections.append(chapters.connect(.rowActivated) { [weak model] row in
            model?.send(.chapter(Int(gtk_list_box_row_get_index(row))))
        })
        retry.onClick { [weak model] in
            guard let model, let book = model.nowPlaying else { return }
            model.send(.play(bookID: book.bookID))
        }
    }

    /// The speed presets (1×, 1.25×, 1.5×, 2×) and the speed field.
    func connectSpeed(presets: Box) {
        for preset in [1.0, 1.25, 1.5, 2.0] {
            let button = Button(unchecked: newObject(gtk_button_new_with_label(PlayerControls.rate(preset))))
            button.setAccessibleLabel(PlayerControls.rate(preset))
            presets.append(button)
            connections.append(button.connect(.clicked) { [weak model] in model?.send(.rate(preset)) })
        }
        connections.append(speedSpin.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            self.model.send(.rate(self.speedSpin.value))
        })
    }

    /// The sleep choices: off (nil), minutes, the end of the chapter.
    func connectSleep(choices: Box) {
        let timers: [(String, PlayerModel.SleepTimer?)] = [(tr("Off"), nil)]
            // TRANSLATORS: a sleep timer choice; %@ is a number of minutes.
            + [5, 10, 15, 30, 45, 60].map { (tr("%@ Minutes", Localization.number($0)), .minutes($0)) }
            + [(tr("End of Chapter"), .endOfChapter)]
        for (name, timer) in timers {
            let button = Button(unchecked: newObject(gtk_button_new_with_label(name)))
            button.addClasses(.flat)
            choices.append(button)
            connections.append(button.connect(.clicked) { [weak self] in
                self?.model.send(.sleep(timer))
                self?.sleepButton.popdown()
            })
        }
    }
}
